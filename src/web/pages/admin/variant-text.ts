// What a reviewer reads under a draft (results-section.tsx): a studio draft's format, backdrop, framing and redo,
// a generator draft's picture, outfit and background asked for, and either one's identity check.
import type { AdminResult } from '../../../domain/staff-api.js';
import type { GeneratorDraftVariant, StudioDraftVariant } from '../../../domain/stored-json.js';
import { outfitName } from './admin-format.js';

/**
 * A draft's variant as these texts read it: every field either kind of draft may have, each optional (each is
 * checked before it is shown), so the text needs no narrowing to one kind.
 */
export type VariantFields = Partial<Omit<StudioDraftVariant, 'generator'>> & Partial<Omit<GeneratorDraftVariant, 'photoId' | 'backdrop' | 'identity'>>;

const FORMAT_LABELS: Record<string, string> = { portrait: '4:5', square: '1:1', application: '35 × 45 mm' };
const VARIATION_LABELS: Record<number, string> = { 1: 'weiterer Ausschnitt', 2: 'engerer Ausschnitt' };
const REDO_LABELS: Record<string, string> = { tighter: 'engerer Ausschnitt', looser: 'weiterer Ausschnitt', photo: 'anderes Foto', backdrop: 'anderer Hintergrund' };
const BACKDROP_LABELS: Record<string, string> = { studio: 'Studio', office: 'Büro', creative: 'Kreativ', own: 'eigener Hintergrund, unscharf' };

/** Where a studio draft comes from, for the reviewer: format, backdrop, and the outfit the customer asked for. */
export function variantText(result: AdminResult): string | null {
  const variant: VariantFields | null = result.variant;
  if (result.generationType === 'external' && variant) return generatorText(variant);
  if (result.generationType !== 'studio' || !variant) return null;
  const parts = [FORMAT_LABELS[variant.format ?? ''] ?? variant.format, variant.backdrop ? `${BACKDROP_LABELS[variant.backdrop.kind] ?? variant.backdrop.kind} ${variant.backdrop.variant + 1}` : null];
  if (variant.variation) parts.push(VARIATION_LABELS[variant.variation] ?? null);
  if (variant.gentle) parts.push('ohne Hautglättung und Stil (sonst nicht wiedererkannt)');
  if (variant.identity) parts.push(identityText(variant.identity));
  if (variant.requestedOutfit) parts.push(`gewünschtes Outfit: ${outfitName(variant.requestedOutfit)} (Kleidung unverändert)`);
  if (variant.redo) parts.push(variant.redo.length ? `Nachbesserung, laut Hinweis geändert: ${variant.redo.map((change) => REDO_LABELS[change] ?? change).join(', ')}` : 'Nachbesserung (aus dem Hinweis nichts gelesen)');
  return `Studio · ${parts.filter(Boolean).join(' · ')}`;
}

const decimal = (value: number) => value.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const identityText = (identity: { distance: number; limit: number }) => `Identität ${decimal(identity.distance)} (Grenze ${decimal(identity.limit)}, kleiner ist ähnlicher)`;

/** A generator's draft: format, picture, outfit and background asked for, and how alike the face is. */
function generatorText(variant: VariantFields): string {
  const parts = [
    FORMAT_LABELS[variant.format ?? ''] ?? variant.format,
    typeof variant.index === 'number' ? `Bild ${variant.index + 1}` : null,
    variant.identity ? identityText(variant.identity) : null,
    // What the model was asked for: staff check the picture shows it.
    variant.outfit ? `verlangt – Outfit: ${variant.outfit.description}` : null,
    variant.background ? `Hintergrund: ${variant.background.description}` : null,
  ];
  return `${variant.generator ?? 'Generator'} · ${parts.filter(Boolean).join(' · ')}`;
}
