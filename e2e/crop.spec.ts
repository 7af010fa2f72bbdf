import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { open } from './helpers.js';

// A phone: narrow, and a touch screen as well as a mouse.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

/**
 * A group photo of three (test/fixtures/faces/sample2.jpg, 1920 × 1367) and the face of the woman in the middle, in
 * source pixels (src/testing/people.ts GROUP_CROPS). Measured with the server's gate: 1024 × 1280 frames at the top
 * edge with their left side from 392 to 504 show her alone; further left or right a neighbour's face comes in.
 * (In sample3 the neighbours stand so close that no frame 1024 px wide holds the customer alone.)
 */
const PHOTO = 'test/fixtures/faces/sample2.jpg';
const FACE = { x: 802, y: 191, size: 353 };

/** Console errors, CSP violations among them (Chromium reports each as one). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function refusedGroupPhoto(page: Page) {
  await open(page, '/order/upload');
  await page.getByTestId('photo-consent').check();
  await page.getByTestId('file-input').setInputFiles({ name: 'party.jpg', mimeType: 'image/jpeg', buffer: readFileSync(PHOTO) });
  const refused = page.getByTestId('upload-error');
  await expect(refused).toContainText('Auf diesem Foto sind mehrere Personen zu sehen.');
  return refused;
}

test('at phone width a group photo refused for several faces is cropped with the keyboard to one person and accepted', async ({ page }) => {
  const errors = consoleErrors(page);
  const refused = await refusedGroupPhoto(page);
  const cropButton = refused.getByRole('button', { name: 'party.jpg zuschneiden' });

  // Escape cancels and leaves the refused photo as it was.
  await cropButton.click();
  const dialog = page.getByRole('dialog', { name: 'Foto zuschneiden' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Pfeiltasten verschieben ihn')).toBeVisible();
  await expect(dialog.getByTestId('crop-frame')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(refused).toHaveCount(1);

  await cropButton.click();
  const frame = dialog.getByTestId('crop-frame');
  await expect(frame).toBeFocused();
  // The whole height of the photo at 4:5, centred.
  await expect(frame).toHaveAttribute('data-crop', '414,1,1093,1366');
  // Smaller until it stops at the least the server accepts: 1024 px on the short side, in the photo's pixels.
  for (let i = 0; i < 4; i++) await page.keyboard.press('-');
  await expect(frame).toHaveAttribute('data-crop', '449,45,1024,1280');
  await expect(dialog.getByTestId('crop-size-value')).toHaveText('1024 × 1280 Pixel – der kleinste Ausschnitt, den wir annehmen');
  // One big step up stops at the top edge; one small step right centres the frame on her face.
  await page.keyboard.press('Shift+ArrowUp');
  await page.keyboard.press('ArrowRight');
  await expect(frame).toHaveAttribute('data-crop', '468,0,1024,1280');
  expect(Math.abs(468 + 512 - (FACE.x + FACE.size / 2))).toBeLessThan(5);
  await page.screenshot({ path: 'test-results/crop-dialog-phone.png' });

  await dialog.getByRole('button', { name: 'Ausschnitt hochladen' }).click();
  await expect(dialog).toHaveCount(0);
  const thumb = page.getByTestId('upload-thumb');
  await expect(thumb).toHaveCount(1);
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  // Accepted, with advice: the neighbours' hair and shoulders still enter at both sides of the crop.
  await expect(thumb).toHaveAttribute('data-quality', 'warning');
  await expect(thumb.getByTestId('warning-otherPeople')).toHaveText(
    'Am Rand dieses Fotos ist noch jemand anderes zu sehen; Teile davon können in Ihren Bildern bleiben. Besser: ein Foto, auf dem nur Sie zu sehen sind.',
  );
  await expect(page.getByTestId('upload-counter')).toContainText('1/3');
  // The server's thumbnail is of the crop: named after the photo, and 4:5.
  const img = thumb.locator('img');
  await expect(img).toHaveAttribute('alt', 'party-crop.jpg');
  await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  const ratio = await img.evaluate((element: HTMLImageElement) => element.naturalWidth / element.naturalHeight);
  expect(ratio).toBeCloseTo(0.8, 2);
  await page.screenshot({ path: 'test-results/crop-accepted-phone.png', fullPage: true });

  // The refused upload's 422 is the only error the browser reports: no CSP violation, no script error.
  expect(errors.filter((text) => !/status of 422/.test(text))).toEqual([]);
});

test('the frame follows a finger or the mouse, its corner resizes it, and it never gets smaller than the server accepts', async ({ page }) => {
  const errors = consoleErrors(page);
  const refused = await refusedGroupPhoto(page);
  await refused.getByTestId('crop-button').click();
  const dialog = page.getByRole('dialog', { name: 'Foto zuschneiden' });
  const frame = dialog.getByTestId('crop-frame');
  await expect(frame).toHaveAttribute('data-crop', '414,1,1093,1366');
  const crop = async () => (await frame.getAttribute('data-crop'))!.split(',').map(Number) as [number, number, number, number];

  // The slider: to its lowest, the smallest frame.
  await dialog.getByLabel('Größe des Ausschnitts').fill('1024');
  await expect(frame).toHaveAttribute('data-crop', /,1024,1280$/);

  // A tap beside the frame brings it there: far right, it stops at the photo's edge.
  const stage = await dialog.locator('canvas').boundingBox();
  await page.touchscreen.tap(stage!.x + stage!.width - 2, stage!.y + stage!.height / 2);
  await expect.poll(async () => (await crop())[0]).toBe(1920 - 1024);

  // Dragged with the mouse by 40 screen pixels to the left: that many photo pixels at the photo's scale.
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const moved = await crop();
  expect(moved[0]).toBeCloseTo(1920 - 1024 - (40 * 1920) / stage!.width, -1);

  // The corner dragged inwards: the frame stays at the minimum; outwards it grows up to the photo's edge.
  const corner = (await frame.boundingBox())!;
  await page.mouse.move(corner.x + corner.width - 6, corner.y + corner.height - 6);
  await page.mouse.down();
  await page.mouse.move(corner.x + 20, corner.y + 20, { steps: 4 });
  await expect(frame).toHaveAttribute('data-crop', /,1024,1280$/);
  await page.mouse.move(corner.x + corner.width + 300, corner.y + corner.height + 300, { steps: 4 });
  await page.mouse.up();
  const grown = await crop();
  expect(grown[2]).toBeGreaterThan(1024);
  expect(grown[0] + grown[2]).toBeLessThanOrEqual(1920);
  expect(grown[1] + grown[3]).toBeLessThanOrEqual(1367);

  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toHaveCount(0);
  expect(errors.filter((text) => !/status of 422/.test(text))).toEqual([]);
});
