/** A probability at or above this (0–255) counts as person for the connectivity. */
export const PERSON_LEVEL = 96;
