/**
 * Compile issues rendered as cel-go renders them, since upstream puts that
 * text into API errors (`compilation failed: ERROR: <input>:1:6: ...`):
 * one block per issue, sorted by position, each with the source line and a
 * caret under the column (full-width marks under multi-byte characters).
 */
import type { Issue } from './checker';

interface Located {
  line: number;
  /** 0-based column in code points. */
  column: number;
  text: string;
}

function locate(source: string, offset: number): Located {
  const lines = source.split('\n');
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const end = start + lines[i].length;
    if (offset <= end || i === lines.length - 1) {
      const column = Array.from(source.slice(start, Math.min(offset, end))).length;
      return { line: i + 1, column, text: lines[i] };
    }
    start = end + 1;
  }
  return { line: 1, column: 0, text: source };
}

const wide = (ch: string | undefined) => ch !== undefined && Buffer.byteLength(ch, 'utf8') > 1;

export function formatIssues(source: string, issues: readonly Issue[]): string {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  return sorted
    .map((issue) => {
      const { line, column, text } = locate(source, issue.offset);
      const snippet = text.replace(/\t/g, ' ');
      const chars = Array.from(snippet);
      let marker = '';
      for (let i = 0; i < column && i < chars.length; i++) marker += wide(chars[i]) ? '\uff0e' : '.';
      marker += wide(chars[column]) ? '\uff3e' : '^';
      return `ERROR: <input>:${line}:${column + 1}: ${issue.message}\n | ${snippet}\n | ${marker}`;
    })
    .join('\n');
}
