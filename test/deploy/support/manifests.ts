/**
 * The Dockerfile, deploy/compose.yaml and deploy/kubernetes/ as data, and the command lines they run,
 * mapped to this machine: container paths to temporary directories, container ports and host names to
 * free loopback ports. Nothing else of a command line changes, so a test that starts it starts what a
 * container would.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { loadAll } from 'js-yaml';

export const repo = resolve(__dirname, '../../..');

export interface Instruction {
  keyword: string;
  /** Flags and arguments as written (line continuations joined). */
  text: string;
  line: number;
}

export interface Dockerfile {
  text: string;
  /** Instructions per build stage, in order; the last stage is the image. */
  stages: Instruction[][];
}

export function readDockerfile(path = join(repo, 'Dockerfile')): Dockerfile {
  const text = readFileSync(path, 'utf8');
  const stages: Instruction[][] = [];
  for (const i of DockerfileParser.parse(text).getInstructions()) {
    const keyword = i.getKeyword();
    if (keyword === 'FROM') stages.push([]);
    const text = i.getTextContent().replace(/\\\r?\n/g, ' ').slice(i.getInstruction().length).trim();
    stages.at(-1)?.push({ keyword, text, line: i.getRange().start.line + 1 });
  }
  return { text, stages };
}

/** The image's stage: its last. */
export const imageStage = (d: Dockerfile) => d.stages.at(-1)!;
export const instructions = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);

/** An exec-form (JSON array) argument list, as Docker requires for a signal-handling ENTRYPOINT. */
export function execForm(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec-form array: ${text}`);
  return parsed;
}

export const entrypoint = (d: Dockerfile) => execForm(instructions(imageStage(d), 'ENTRYPOINT').at(-1)!.text);

/** The HEALTHCHECK's options and exec-form command. */
export function healthcheck(d: Dockerfile): { options: string[]; command: string[] } {
  const text = instructions(imageStage(d), 'HEALTHCHECK').at(-1)!.text;
  const m = /^((?:--\S+\s+)*)CMD\s+(\[.*\])\s*$/s.exec(text);
  if (!m) throw new Error(`HEALTHCHECK is not "[options] CMD [exec form]": ${text}`);
  return { options: m[1].trim().split(/\s+/).filter(Boolean), command: execForm(m[2]) };
}

/** Every YAML document of a file, parsed strictly (duplicate keys and syntax errors throw); `<<` merge keys as compose reads them (js-yaml's default schema). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readYaml(path: string): any[] {
  return loadAll(readFileSync(path, 'utf8'), undefined, { filename: path });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const compose = (): any => readYaml(join(repo, 'deploy/compose.yaml'))[0];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const kubernetes = (file: string): any[] => readYaml(join(repo, 'deploy/kubernetes', file));

/**
 * Rewrites a command line for this machine: each `from` (a container path, address or port, longest
 * first) becomes its `to` wherever it occurs in an argument.
 */
export function mapArgs(args: string[], mapping: Record<string, string>): string[] {
  const pairs = Object.entries(mapping).sort(([a], [b]) => b.length - a.length);
  return args.map((arg) => {
    let out = '';
    // One left-to-right pass, so a replacement is never itself rewritten.
    for (let i = 0; i < arg.length; ) {
      const hit = pairs.find(([from]) => arg.startsWith(from, i));
      if (hit) {
        out += hit[1];
        i += hit[0].length;
      } else out += arg[i++];
    }
    return out;
  });
}

/** Kubernetes' `$(VAR)` expansion in command and args. */
export const expandEnv = (args: string[], env: Record<string, string>) => args.map((a) => a.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string) => env[name] ?? m));
