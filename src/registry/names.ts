/** generateName: the prefix cut to 58 characters plus five random consonants and digits, as upstream. */
import type { RandomPort } from '../ports/random.port';

const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxPrefix = 58;

export function generateName(prefix: string, random: RandomPort): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[random.int(alphabet.length)];
  return prefix.slice(0, maxPrefix) + suffix;
}

/** Attempts before a generateName create gives up, as upstream's RetryGenerateName. */
export const generateNameAttempts = 8;
