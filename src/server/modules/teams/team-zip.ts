// The team ZIP: all published pictures of the team in one format (or the square ones as profile pictures),
// in one folder per member; its kinds (TEAM_ZIP_KINDS) are what the download route accepts.
import type { Readable } from 'node:stream';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import yazl from 'yazl';
import { generatedImages, orders } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { ZIP_FORMATS, type ZipFormat } from '../customer-orders/download-links.js';
import type { TeamContext } from './team-context.js';

/** The team ZIP's kinds: each output format, and the square one as a profile picture. */
export const TEAM_ZIP_KINDS = [...ZIP_FORMATS, 'profile'] as const;

export type TeamZipKind = (typeof TEAM_ZIP_KINDS)[number];

/** The square picture as a profile picture: what LinkedIn and the usual team pages show well. */
export const PROFILE_PICTURE_PX = 800;

/** A file name part from an e-mail address (the ZIP's folders are per member). */
function memberLabel(email: string | null, fallback: string): string {
  const local = (email ?? '').split('@')[0] ?? '';
  return local.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || fallback;
}

export function createTeamZip(ctx: TeamContext) {
  const { deps, requireTeam } = ctx;
  const { db, storage } = deps;

  return {
    /** All published pictures of the team in one format (or the square ones as profile pictures), per member. */
    async teamZip(teamId: string, kind: TeamZipKind): Promise<{ stream: Readable; fileName: string }> {
      const team = await requireTeam(teamId);
      const format: ZipFormat = kind === 'profile' ? 'square' : kind;
      const rows = await db
        .select({ image: generatedImages, email: orders.email, memberId: orders.id })
        .from(generatedImages)
        .innerJoin(orders, eq(orders.id, generatedImages.orderId))
        .where(and(eq(orders.teamOrderId, teamId), eq(generatedImages.status, 'active')))
        .orderBy(asc(orders.createdAt), asc(generatedImages.createdAt), asc(generatedImages.id));
      const chosen = rows.filter((r) => r.image.variant?.format === format);
      if (!chosen.length) throw notFound('notFound');
      const present = await Promise.all(chosen.map((r) => storage.exists(r.image.storageKey)));
      if (present.includes(false)) throw new AppError(503, 'resultsUnavailable');
      const zip = new yazl.ZipFile();
      const output = zip.outputStream as unknown as Readable;
      const perMember = new Map<string, number>();
      for (const { image, email, memberId } of chosen) {
        const n = (perMember.get(memberId) ?? 0) + 1;
        perMember.set(memberId, n);
        const name = `${memberLabel(email, memberId.slice(0, 8))}/${memberLabel(email, 'bild')}-${kind === 'profile' ? 'profil' : format}-${n}.jpg`;
        zip.addReadStreamLazy(name, { compress: false, mtime: image.createdAt }, (callback) => {
          storage.getStream(image.storageKey).then(
            (stream) => {
              stream.on('error', (error: Error) => output.destroy(error));
              if (kind !== 'profile') return callback(null, stream);
              const resized = sharp().resize(PROFILE_PICTURE_PX, PROFILE_PICTURE_PX, { fit: 'cover' }).jpeg({ quality: 90 }).withMetadata({ density: 72 });
              resized.on('error', (error: Error) => output.destroy(error));
              callback(null, stream.pipe(resized));
            },
            (error: Error) => output.destroy(error),
          );
        });
      }
      zip.on('error', (error: Error) => output.destroy(error));
      zip.end();
      return { stream: output, fileName: `team-${team.orderNumber}-${kind === 'profile' ? 'profilbilder' : format}.zip` };
    },
  };
}
