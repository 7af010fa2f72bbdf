// A studio draft's way through the output gate (renderChecked): kept as rendered when it passes; rendered again
// gently when the retouch made the face unrecognisable, and kept with `gentle` when that passes; neither kept when
// the gentle one fails too. The render and the gate are stand-ins here: studio.test.ts runs the real ones.
import { expect, test } from 'vitest';
import type { Inference } from '../../../studio/inference/client.js';
import type { DraftVerdict } from '../../../studio/output-gate.js';
import type { DraftSpec } from '../../../studio/render.js';
import { renderChecked } from './studio-service.js';

const spec: DraftSpec = { format: 'square', backdrop: { kind: 'studio', variant: 1 }, style: 'professional' };
const input = { photo: Buffer.from('photo'), face: { x: 0, y: 0, width: 10, height: 10 }, spec, references: [[0.1]], inference: {} as Inference };

/** A render that marks its picture gentle or not, and a gate that passes the kinds of picture it is told to. */
function steps(passes: { retouched: boolean; gentle: boolean }) {
  const rendered: DraftSpec[] = [];
  return {
    rendered,
    steps: {
      render: async ({ spec: asked }: { spec: DraftSpec }) => {
        rendered.push(asked);
        return { buffer: Buffer.from(asked.gentle ? 'gentle' : 'retouched'), width: 1, height: 1 };
      },
      check: async (picture: Buffer): Promise<DraftVerdict> => {
        const gentle = picture.toString() === 'gentle';
        return (gentle ? passes.gentle : passes.retouched) ? { ok: true, identity: { distance: gentle ? 0.44 : 0.2, limit: 0.5 } } : { ok: false, reason: 'otherPerson', identity: { distance: 0.68, limit: 0.5 } };
      },
    },
  };
}

test('a draft that passes is kept as rendered, with its distance', async () => {
  const { rendered, steps: s } = steps({ retouched: true, gentle: true });
  const result = await renderChecked(input, s as never);
  expect(rendered).toEqual([spec]);
  expect(result.spec.gentle).toBeUndefined();
  expect(result.verdict).toEqual({ ok: true, identity: { distance: 0.2, limit: 0.5 } });
});

test('a draft the retouch made unrecognisable is made again gently and kept so, with the gentle distance', async () => {
  const { rendered, steps: s } = steps({ retouched: false, gentle: true });
  const result = await renderChecked(input, s as never);
  expect(rendered).toEqual([spec, { ...spec, gentle: true }]);
  expect(result.spec).toEqual({ ...spec, gentle: true });
  expect(result.rendered.buffer.toString()).toBe('gentle');
  expect(result.verdict).toEqual({ ok: true, identity: { distance: 0.44, limit: 0.5 } });
});

test('a draft that fails gently too is not kept: the verdict says why', async () => {
  const { rendered, steps: s } = steps({ retouched: false, gentle: false });
  const result = await renderChecked(input, s as never);
  expect(rendered).toHaveLength(2);
  expect(result.verdict).toEqual({ ok: false, reason: 'otherPerson', identity: { distance: 0.68, limit: 0.5 } });
});
