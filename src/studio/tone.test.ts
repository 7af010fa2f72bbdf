// The tone correction applied in place must give the very pixels libvips' `linear` gave (render.ts used it):
// drafts of the same photo stay byte for byte what they were.
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { peopleCorpus } from '../testing/people.js';
import { applyStyle } from './retouch.js';
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

test('the retouch changes only where the person shows: pixels the backdrop covers (opacity 0) keep their colour', async () => {
  const [person] = await peopleCorpus();
  const { data, info } = await sharp(person!.photo).resize({ width: 300 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  // The left half shows, the right half is covered.
  const shown = new Uint8Array(info.width * info.height);
  for (let i = 0; i < shown.length; i++) if (i % info.width < info.width / 2) shown[i] = 1 + (i % 255);
  const tone = { gains: [1.3, 0.9, 1.1] as [number, number, number] };
  const everywhere = Uint8Array.from(rgb);
  applyTone(everywhere, tone);
  const toned = Uint8Array.from(rgb);
  applyTone(toned, tone, shown);
  const styledEverywhere = Uint8Array.from(rgb);
  applyStyle(styledEverywhere, 'creative');
  const styled = Uint8Array.from(rgb);
  applyStyle(styled, 'creative', shown);
  for (let i = 0; i < shown.length; i++) {
    const pixel = (image: Uint8Array) => [...image.subarray(i * 3, i * 3 + 3)];
    if (shown[i]) {
      expect(pixel(toned)).toEqual(pixel(everywhere));
      expect(pixel(styled)).toEqual(pixel(styledEverywhere));
    } else {
      expect(pixel(toned)).toEqual(pixel(rgb));
      expect(pixel(styled)).toEqual(pixel(rgb));
    }
  }
  // Not a test of nothing: the shown half did change.
  expect(Buffer.from(toned).equals(Buffer.from(rgb))).toBe(false);
});
