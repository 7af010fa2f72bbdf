// Backdrops for the studio drafts, drawn (not photographed): a studio wall, an office out of focus, or a
// creative colour field. Drawn small and enlarged, which gives
// the soft look of a background out of focus at no cost.
import sharp from 'sharp';
import type { Location } from '../domain/catalog.js';

export type BackdropKind = Location;
export const BACKDROP_VARIANTS = 5;

interface Palette {
  wall: [string, string];
  accents: string[];
}

const STUDIO: Palette[] = [
  { wall: ['#e7e9ec', '#a3a9b1'], accents: [] },
  { wall: ['#dfe7ef', '#7f91a6'], accents: [] },
  { wall: ['#eee8e1', '#aaa196'], accents: [] },
  { wall: ['#f7f9fb', '#c9d2dc'], accents: [] },
  { wall: ['#5b6470', '#22272e'], accents: [] },
];

const OFFICE: Palette[] = [
  { wall: ['#e9e4dc', '#b9b0a3'], accents: ['#fdfcf7', '#8c9a7a', '#6b7785'] },
  { wall: ['#dde3e8', '#9aa6b2'], accents: ['#ffffff', '#7d8f6b', '#4a5563'] },
  { wall: ['#efe9e0', '#c2b49f'], accents: ['#fff8ea', '#5f7a5a', '#8a6f55'] },
  { wall: ['#d9dde0', '#8d969e'], accents: ['#f4f8fb', '#6d8560', '#39424d'] },
  { wall: ['#e6e1da', '#a8998a'], accents: ['#fffdf5', '#7a9468', '#5b4b3f'] },
];

const CREATIVE: Palette[] = [
  { wall: ['#0f766e', '#312e81'], accents: ['#f59e0b', '#ec4899'] },
  { wall: ['#7c3aed', '#0e7490'], accents: ['#fbbf24', '#22d3ee'] },
  { wall: ['#be123c', '#1e3a8a'], accents: ['#fb923c', '#a78bfa'] },
  { wall: ['#166534', '#0f172a'], accents: ['#facc15', '#38bdf8'] },
  { wall: ['#9a3412', '#4c1d95'], accents: ['#fde68a', '#f472b6'] },
];

function studioSvg(p: Palette, w: number, h: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><radialGradient id="g" cx="0.5" cy="0.38" r="0.75"><stop offset="0" stop-color="${p.wall[0]}"/><stop offset="1" stop-color="${p.wall[1]}"/></radialGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/></svg>`;
}

function officeSvg(p: Palette, w: number, h: number, variant: number): string {
  const [light, plant, furniture] = p.accents as [string, string, string];
  const windowX = (variant % 2 === 0 ? 0.08 : 0.58) * w;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.wall[0]}"/><stop offset="1" stop-color="${p.wall[1]}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>
<rect x="${windowX}" y="${0.08 * h}" width="${0.34 * w}" height="${0.5 * h}" fill="${light}" opacity="0.85"/>
<rect x="${windowX + 0.165 * w}" y="${0.08 * h}" width="${0.012 * w}" height="${0.5 * h}" fill="${p.wall[1]}" opacity="0.5"/>
<rect x="0" y="${0.66 * h}" width="${w}" height="${0.34 * h}" fill="${furniture}" opacity="0.55"/>
<ellipse cx="${(variant % 2 === 0 ? 0.85 : 0.15) * w}" cy="${0.55 * h}" rx="${0.1 * w}" ry="${0.16 * h}" fill="${plant}" opacity="0.8"/>
<circle cx="${(0.3 + 0.1 * variant) * w}" cy="${0.2 * h}" r="${0.05 * w}" fill="${light}" opacity="0.6"/></svg>`;
}

function creativeSvg(p: Palette, w: number, h: number, variant: number): string {
  const [a, b] = p.accents as [string, string];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.wall[0]}"/><stop offset="1" stop-color="${p.wall[1]}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>
<circle cx="${(0.15 + 0.15 * variant) * w}" cy="${0.22 * h}" r="${0.22 * w}" fill="${a}" opacity="0.55"/>
<circle cx="${(0.85 - 0.1 * variant) * w}" cy="${0.7 * h}" r="${0.28 * w}" fill="${b}" opacity="0.45"/></svg>`;
}

/** A backdrop of the given size as raw RGB. `variant` picks one of BACKDROP_VARIANTS looks. */
export async function drawBackdrop(kind: BackdropKind, variant: number, width: number, height: number): Promise<Buffer> {
  const v = ((variant % BACKDROP_VARIANTS) + BACKDROP_VARIANTS) % BACKDROP_VARIANTS;
  // Drawn at an eighth of the size: enlarging it is the blur.
  const w = Math.max(16, Math.round(width / 8));
  const h = Math.max(16, Math.round(height / 8));
  const svg = kind === 'studio' ? studioSvg(STUDIO[v]!, w, h) : kind === 'office' ? officeSvg(OFFICE[v]!, w, h, v) : creativeSvg(CREATIVE[v]!, w, h, v);
  const small = await sharp(Buffer.from(svg)).blur(kind === 'studio' ? 0.3 : 1.6).removeAlpha().toBuffer();
  return sharp(small).resize(width, height, { fit: 'fill', kernel: 'cubic' }).removeAlpha().raw().toBuffer();
}
