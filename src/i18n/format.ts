// The message syntax of every catalogue: "{name}" fills a value; "{n, plural, one {# Foto} other {# Fotos}}"
// picks the language's plural form through Intl.PluralRules ("=0 {…}" matches an exact number, "#" is the
// number in the language's format); "{mode, select, express {…} other {…}}" picks by a word. This is the
// subset of ICU MessageFormat the shop uses; the browser needs no library for it.
import type { Language } from '../domain/catalog.js';

export type MessageVars = Record<string, string | number>;

type Part = string | { name: string } | { name: string; kind: 'plural' | 'select'; branches: Map<string, Part[]> };

const cache = new Map<string, Part[]>();

class MessageSyntaxError extends Error {}

function parse(text: string): Part[] {
  let parts = cache.get(text);
  if (!parts) {
    const [result, end] = parseParts(text, 0, false, false);
    if (end !== text.length) throw new MessageSyntaxError(`unbalanced "}" in: ${text}`);
    parts = result;
    cache.set(text, parts);
  }
  return parts;
}

/**
 * Parses until the end of the text, or (inside a branch) until its closing brace; "#" is the number inside a
 * plural's branches. Returns the parts and the position.
 */
function parseParts(text: string, start: number, inBranch: boolean, hash: boolean): [Part[], number] {
  const parts: Part[] = [];
  let literal = '';
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '}') {
      if (!inBranch) throw new MessageSyntaxError(`unexpected "}" in: ${text}`);
      break;
    }
    if (char === '#' && hash) {
      if (literal) parts.push(literal);
      literal = '';
      parts.push({ name: '#' });
      i += 1;
      continue;
    }
    if (char !== '{') {
      literal += char;
      i += 1;
      continue;
    }
    const close = text.indexOf('}', i);
    const head = /^\{\s*(\w+)\s*(?:,\s*(plural|select)\s*,)?/.exec(text.slice(i));
    if (!head || close < 0 || (!head[2] && !/^\{\s*\w+\s*\}$/.test(text.slice(i, close + 1)))) {
      // Not an argument (a literal brace in prose): kept as written.
      literal += char;
      i += 1;
      continue;
    }
    if (literal) parts.push(literal);
    literal = '';
    const name = head[1]!;
    if (!head[2]) {
      parts.push({ name });
      i = close + 1;
      continue;
    }
    const kind = head[2] as 'plural' | 'select';
    const branches = new Map<string, Part[]>();
    i += head[0].length;
    for (;;) {
      const selector = /^\s*(=\d+|\w+)\s*\{/.exec(text.slice(i));
      if (!selector) break;
      const [branch, end] = parseParts(text, i + selector[0].length, true, hash || kind === 'plural');
      if (text[end] !== '}') throw new MessageSyntaxError(`unclosed branch "${selector[1]}" in: ${text}`);
      branches.set(selector[1]!, branch);
      i = end + 1;
    }
    const rest = /^\s*\}/.exec(text.slice(i));
    if (!rest || !branches.has('other')) throw new MessageSyntaxError(`"${name}" needs an "other" branch and a closing "}" in: ${text}`);
    i += rest[0].length;
    parts.push({ name, kind, branches });
  }
  if (literal) parts.push(literal);
  return [parts, i];
}

const pluralRules = new Map<Language, Intl.PluralRules>();
const numberFormats = new Map<Language, Intl.NumberFormat>();

function pluralCategory(language: Language, n: number): string {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(n);
}

function formatNumber(language: Language, n: number): string {
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)));
  return format.format(n);
}

function render(parts: Part[], vars: MessageVars, language: Language, count: number | null): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if (part.name === '#' && count !== null) out += formatNumber(language, count);
    else if (!('kind' in part)) out += part.name in vars ? String(vars[part.name]) : `{${part.name}}`;
    else {
      const value = vars[part.name];
      if (part.kind === 'select') {
        out += render(part.branches.get(String(value)) ?? part.branches.get('other')!, vars, language, count);
      } else {
        const n = Number(value);
        const branch = part.branches.get(`=${n}`) ?? part.branches.get(pluralCategory(language, n)) ?? part.branches.get('other')!;
        out += render(branch, vars, language, n);
      }
    }
  }
  return out;
}

/** Fills a catalogue text. A missing value stays visible as "{name}", as a missing key shows itself. */
export function formatMessage(text: string, vars: MessageVars | undefined, language: Language): string {
  if (!text.includes('{')) return text;
  return render(parse(text), vars ?? {}, language, null);
}

/** The values a text takes, sorted (for the test that every language asks for the same ones). */
export function argumentsOf(text: string): string[] {
  const names = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const part of parts) {
      if (typeof part === 'string' || part.name === '#') continue;
      names.add(part.name);
      if ('kind' in part) for (const branch of part.branches.values()) walk(branch);
    }
  };
  walk(parse(text));
  return [...names].sort();
}
