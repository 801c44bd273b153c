/**
 * The README as data: its fenced blocks marked `<!-- walkthrough -->` or `<!-- client-node -->`, each shell block
 * split into the commands a user would type (continued lines joined, here-documents kept with their command), and
 * what a trailing comment promises: `# → text` (the output contains it) or `# ✗ text` (the command fails, saying it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './ops';

export interface Command {
  text: string;
  expect?: { fails: boolean; output: string };
}

export const readme = () => readFileSync(join(repo, 'README.md'), 'utf8');

/** The blocks that follow `<!-- marker -->`, in order. */
export function markedBlocks(text: string, marker: string): string[] {
  const blocks: string[] = [];
  const re = new RegExp(`<!-- ${marker} -->\\s*\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``, 'g');
  for (const m of text.matchAll(re)) blocks.push(m[1]);
  return blocks;
}

export function commandsOf(block: string): Command[] {
  const lines = block.split('\n');
  const commands: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i];
    if (!text.trim() || text.trim().startsWith('#')) continue;
    while (text.endsWith('\\') && i + 1 < lines.length) text += `\n${lines[++i]}`;
    const heredoc = /<<-?\s*'?(\w+)'?/.exec(text);
    if (heredoc) {
      while (i + 1 < lines.length) {
        text += `\n${lines[++i]}`;
        if (lines[i].trim() === heredoc[1]) break;
      }
    }
    const promise = /\s#\s+(→|✗)\s+(.+)$/.exec(text.split('\n')[0]) ?? /\s#\s+(→|✗)\s+(.+)$/.exec(text.split('\n').at(-1)!);
    commands.push({ text, expect: promise ? { fails: promise[1] === '✗', output: promise[2].trim() } : undefined });
  }
  return commands;
}
