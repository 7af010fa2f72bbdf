// Short human order numbers such as BF-7K3M9Q2X (docs/rules.md §2).
// Alphabet without 0/O, 1/I/L and U so numbers survive being read out on the phone.

export const ORDER_NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ORDER_NUMBER_LENGTH = 8;
export const ORDER_NUMBER_PATTERN = new RegExp(`^BF-[${ORDER_NUMBER_ALPHABET}]{${ORDER_NUMBER_LENGTH}}$`);

/** Builds an order number from random bytes (at least 8); the caller supplies the randomness. */
export function orderNumberFromBytes(bytes: Uint8Array): string {
  if (bytes.length < ORDER_NUMBER_LENGTH) throw new RangeError('need at least 8 random bytes');
  let out = 'BF-';
  for (let i = 0; i < ORDER_NUMBER_LENGTH; i++) {
    // 30 symbols: the modulo bias over 256 values is small and irrelevant for display ids;
    // uniqueness is guaranteed by the database constraint, not by this function.
    out += ORDER_NUMBER_ALPHABET[(bytes[i] ?? 0) % ORDER_NUMBER_ALPHABET.length];
  }
  return out;
}

export function normalizeOrderNumber(input: string): string {
  return input.trim().toUpperCase();
}

export function isOrderNumber(input: string): boolean {
  return ORDER_NUMBER_PATTERN.test(normalizeOrderNumber(input));
}
