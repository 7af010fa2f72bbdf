// What a reviewer reads under a studio draft (variant-text.ts): its format and backdrop, a framing other than the
// format's own, a draft made gently because the face was not recognised otherwise, the identity distance, and what
// a customer's redo reason changed.
import { expect, test } from 'vitest';
import type { AdminResult } from '../../../domain/staff-api.js';
import { variantText, type VariantFields } from './variant-text.js';

const studio = (variant: VariantFields) => ({ generationType: 'studio', variant }) as AdminResult;

test('a studio draft: format, backdrop, a gentle redraw, the identity distance and what a redo changed', () => {
  expect(variantText(studio({ format: 'square', backdrop: { kind: 'studio', variant: 2 }, identity: { distance: 0.134, limit: 0.5 } }))).toBe(
    'Studio · 1:1 · Studio 3 · Identität 0,13 (Grenze 0,50, kleiner ist ähnlicher)',
  );
  expect(variantText(studio({ format: 'portrait', backdrop: { kind: 'creative', variant: 0 }, variation: 2, gentle: true, identity: { distance: 0.41, limit: 0.5 }, redo: ['tighter', 'backdrop'] }))).toBe(
    'Studio · 4:5 · Kreativ 1 · engerer Ausschnitt · ohne Hautglättung und Stil (sonst nicht wiedererkannt) · Identität 0,41 (Grenze 0,50, kleiner ist ähnlicher) · Nachbesserung, laut Hinweis geändert: engerer Ausschnitt, anderer Hintergrund',
  );
  // A redo whose reason named nothing the studio can change says so; a staff upload has no such line.
  expect(variantText(studio({ format: 'application', redo: [] }))).toBe('Studio · 35 × 45 mm · Nachbesserung (aus dem Hinweis nichts gelesen)');
  expect(variantText({ generationType: 'admin_upload', variant: null } as AdminResult)).toBeNull();
});
