// The tone correction applied in place must give the very pixels libvips' `linear` gave (render.ts used it):
// drafts of the same photo stay byte for byte what they were.
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { peopleCorpus } from '../testing/people.js';
import { applyTone, measureTone } from './tone.js';

test('the gains applied in place equal sharp\'s linear on real photos, the measured gains and strong ones', async () => {
  const people = await peopleCorpus();
  for (const person of people.slice(0, 4)) {
    const { data, info } = await sharp(person.photo).resize({ width: 400 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const measured = measureTone(rgb, new Uint8Array(info.width * info.height).fill(255));
    for (const tone of [measured, { gains: [1.22, 0.88, 1.0000001] as [number, number, number] }, { gains: [1.337, 1.0213, 0.8731] as [number, number, number] }]) {
      const expected = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).linear(tone.gains, [0, 0, 0]).raw().toBuffer();
      const inPlace = Uint8Array.from(rgb);
      applyTone(inPlace, tone);
      expect(Buffer.from(inPlace).equals(expected), `${person.name}, gains ${tone.gains.join(', ')}`).toBe(true);
      // Not a copy of the input: strong gains change the pixels.
      if (tone.gains[0] > 1.2) expect(Buffer.from(inPlace).equals(data)).toBe(false);
    }
  }
});
