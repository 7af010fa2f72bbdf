// What a redo's reason asks of the studio, where the studio can do it: a tighter or looser frame, another of the
// customer's photos, another backdrop. Read from the customer's own words in German, English or Spanish; what is
// not understood changes nothing here (staff read the reason beside the new drafts and answer it themselves).
// Pure: the redo job (studio-service.ts) applies the changes, the acknowledgement mail names them.

export interface RedoChanges {
  framing?: 'tighter' | 'looser';
  /** Another of the order's photos (another expression, another light, another edge). */
  photo?: boolean;
  backdrop?: boolean;
}

export const REDO_CHANGES = ['tighter', 'looser', 'photo', 'backdrop'] as const;
export type RedoChange = (typeof REDO_CHANGES)[number];

/** Lower case, umlauts and accents folded ("größer" → "grosser", "más" → "mas"), runs of space as one. */
function folded(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

// Phrases, folded as above; a leading or trailing space makes a word boundary there.
const TIGHTER = [
  'weniger platz', 'weniger raum', 'zu viel platz', 'zu viel raum', 'zu viel hintergrund', 'zu viel luft', 'naher', 'enger', 'grosser', 'zu klein', 'heran',
  'less space', 'less room', 'too much space', 'too much room', 'too much background', 'closer', 'tighter', 'bigger', 'larger', 'too small', 'zoom in',
  'menos espacio', 'demasiado espacio', 'demasiado fondo', 'mas cerca', 'mas grande', 'muy pequen', 'acercar',
];
const LOOSER = [
  'mehr platz', 'mehr raum', 'zu eng', 'zu nah', 'zu gross', 'abgeschnitten', 'mehr schulter', 'mehr oberkorper', 'weiter weg',
  'more space', 'more room', 'too tight', 'too close', 'too big', 'too large', 'cut off', 'more shoulder', 'zoom out', 'wider', 'looser',
  'mas espacio', 'demasiado cerca', 'demasiado grande', 'cortad', 'mas hombro', 'mas lejos', 'alej',
];
const PHOTO = [
  'anderes foto', 'anderen foto', 'anderes bild', 'anderen bild', 'anderem foto', 'anderem bild', 'lachel', 'augen zu', 'geschlossen', ' rand ', ' rander', 'kante', 'saum', 'farbsaum',
  'other photo', 'another photo', 'different photo', 'other picture', 'another picture', 'different picture', 'smil', 'eyes closed', 'edge', 'fringe', 'halo', 'outline',
  'otra foto', 'otra imagen', 'sonri', 'ojos cerrados', 'borde', 'contorno',
];
const BACKDROP = ['hintergrund', 'background', 'backdrop', 'fondo'];

/** The changes a reason asks for. Both a tighter and a looser frame named: neither (staff decide). */
export function redoChanges(reason: string): RedoChanges {
  const text = folded(reason);
  const has = (phrases: readonly string[]) => phrases.some((phrase) => text.includes(phrase));
  const tighter = has(TIGHTER);
  const looser = has(LOOSER);
  const changes: RedoChanges = {};
  if (tighter !== looser) changes.framing = tighter ? 'tighter' : 'looser';
  if (has(PHOTO)) changes.photo = true;
  // "Too much background" is about the frame, not the backdrop's look.
  if (has(BACKDROP) && !/(zu viel|too much|demasiado) (hintergrund|background|fondo)/.test(text)) changes.backdrop = true;
  return changes;
}

/** The changes as a list, in a fixed order (for mails and the back office). */
export function changeList(changes: RedoChanges | null | undefined): RedoChange[] {
  if (!changes) return [];
  return REDO_CHANGES.filter((change) => (change === 'tighter' || change === 'looser' ? changes.framing === change : changes[change]));
}
