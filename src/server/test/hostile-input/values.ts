// The hostile values of hostile-input.test.ts: for body fields, for query and path values, and whole bodies.

/** In every hostile text that could be personal data, so the log check can find it (case-insensitive). */
export const MARKER = 'markermann';
const MARKER_EMAIL = 'hostile.markermann@example.de';

interface Hostile {
  label: string;
  /** The JSON text put in place of a body field. */
  json: string;
  /** The text put in place of a query or path value, when the value has one. */
  text?: string;
}

const json = (label: string, value: unknown): Hostile => ({ label, json: JSON.stringify(value), ...(typeof value === 'string' || typeof value === 'number' ? { text: String(value) } : {}) });
const raw = (label: string, text: string): Hostile => ({ label, json: text });

/** The table of hostile values, for body fields (as JSON) and for query and path values (as text). */
export const HOSTILE: Hostile[] = [
  json('NUL in a name', 'Max\u0000Markermann'),
  json('NUL in an e-mail', 'markermann\u0000@example.de'),
  json('NUL alone', '\u0000'),
  json('C0 controls and an ANSI escape', 'Markermann\u0001\u0007\u001b[31m\u007f'),
  json('C1 controls', 'Markermann\u0085\u009b\u009f'),
  json('tab', 'Max\tMarkermann'),
  json('header injection', 'Markermann\r\nBcc: victim@example.de'),
  json('lone high surrogate', 'Markermann\uD800'),
  json('lone low surrogate', '\uDC00Markermann'),
  json('right-to-left override', '\u202EMarkermann\u202C'),
  json('zero-width and byte-order marks', 'Markermann\u200B\u200D\uFEFF'),
  json('10 000 characters', 'Markermann'.repeat(1000)),
  json('10 000 UTF-16 units of emoji', `Markermann${'😀'.repeat(5000)}`),
  json('emoji', 'Markermann 😀👩‍👩‍👧‍👦'),
  json('SQL', "Markermann' OR '1'='1' --"),
  json('SQL in an e-mail', "markermann@example.de'; DROP TABLE orders; --"),
  json('HTML', '<script>alert("Markermann")</script>'),
  json('HTML attribute', '"><img src=x onerror=alert(1)>Markermann'),
  json('percent signs', '%E0%A4%A%Markermann%00'),
  json('__proto__ as a value', '__proto__'),
  json('constructor as a value', 'constructor'),
  json('empty', ''),
  json('spaces', '   '),
  json('a plausible e-mail', MARKER_EMAIL),
  json('zero', 0),
  json('negative', -1),
  json('huge number', 1e308),
  json('fraction', 0.5),
  json('true', true),
  json('false', false),
  json('null', null),
  json('empty array', []),
  json('array of strings', ['Markermann', MARKER_EMAIL]),
  json('empty object', {}),
  json('object', { toString: 'Markermann', valueOf: 1 }),
  raw('__proto__ object', '{"__proto__":{"polluted":"Markermann"}}'),
  raw('constructor.prototype object', '{"constructor":{"prototype":{"polluted":"Markermann"}}}'),
  raw('arrays 10 000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
  raw('objects 5 000 deep', `${'{"a":'.repeat(5000)}"Markermann"${'}'.repeat(5000)}`),
];

/** Percent-encoding as a client would send it; a lone surrogate as the bytes of its UTF-16 half (WTF-8), which no decoder accepts. */
function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** Hostile query and path values, already in URL form: the table's texts encoded, plus invalid encodings sent as they are. */
export const HOSTILE_URL_VALUES: { label: string; encoded: string }[] = [
  ...HOSTILE.filter((h) => h.text !== undefined).map((h) => ({ label: h.label, encoded: percentEncode(h.text!) })),
  { label: 'lone %', encoded: 'Markermann%' },
  { label: '%zz', encoded: '%zzMarkermann' },
  { label: 'cut UTF-8 sequence', encoded: 'Markermann%E0%A4%A' },
  { label: 'encoded surrogate', encoded: '%ED%A0%80Markermann' },
  { label: 'overlong slash', encoded: '%C0%AFMarkermann' },
  { label: 'invalid UTF-8 bytes', encoded: '%FF%FEMarkermann' },
  { label: 'encoded NUL', encoded: 'Markermann%00' },
  { label: 'path traversal', encoded: '..%2F..%2Fetc%2Fpasswd%2FMarkermann' },
];

/** Whole bodies sent to every route that takes one: broken JSON, wrong types, other content types, too much. */
export const HOSTILE_BODIES: { label: string; contentType: string; body: string | Buffer }[] = [
  { label: 'broken JSON', contentType: 'application/json', body: '{"name": "Markermann' },
  { label: 'empty JSON body', contentType: 'application/json', body: '' },
  { label: 'JSON null', contentType: 'application/json', body: 'null' },
  { label: 'JSON array', contentType: 'application/json', body: '["Markermann"]' },
  { label: 'JSON string', contentType: 'application/json', body: '"Markermann"' },
  { label: 'JSON number', contentType: 'application/json', body: '12' },
  { label: 'raw NUL byte in JSON', contentType: 'application/json', body: '{"name":"Max\u0000Markermann"}' },
  { label: 'invalid UTF-8 in JSON', contentType: 'application/json', body: Buffer.concat([Buffer.from('{"name":"Markermann'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')]) },
  { label: 'duplicate keys', contentType: 'application/json', body: `{"email":"${MARKER_EMAIL}","email":"Markermann\\u0000"}` },
  { label: '__proto__ at the top', contentType: 'application/json', body: '{"__proto__":{"polluted":"Markermann"}}' },
  { label: 'constructor.prototype at the top', contentType: 'application/json', body: '{"constructor":{"prototype":{"polluted":"Markermann"}}}' },
  { label: 'arrays 100 000 deep', contentType: 'application/json', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { label: 'over the body limit', contentType: 'application/json', body: `{"name":"${'Markermann'.repeat(110_000)}"}` },
  { label: 'text/plain', contentType: 'text/plain', body: 'Markermann' },
  { label: 'form-encoded', contentType: 'application/x-www-form-urlencoded', body: `name=Markermann&email=${encodeURIComponent(MARKER_EMAIL)}` },
  { label: 'multipart garbage', contentType: 'multipart/form-data; boundary=xyz', body: '--xyz\r\nMarkermann\r\n' },
  { label: 'JSON in UTF-16', contentType: 'application/json; charset=utf-16', body: Buffer.from('{"name":"Markermann"}', 'utf16le') },
  { label: 'made-up content type', contentType: 'application/x-markermann', body: 'Markermann' },
];
