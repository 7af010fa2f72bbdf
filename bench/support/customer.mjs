// What bench/load and bench/photo-rush send as customers: phone photos of one real man, and requests over Node's
// HTTP client.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { ROOT, SMOKE } from '../lib.mjs';

/**
 * Phone photos of one real man: the five frames of him in test/fixtures/faces, and the first taken closer (a
 * crop; not mirrored: a mirrored face is farther from the others than the identity check allows). `count` of them
 * (at most six), 12 MP at JPEG quality 90 with sensor-like grain, which does not compress: about 2.7 MB each, as a
 * phone sends (1280 × 1024 in a smoke run).
 */
export async function phonePhotos(count = 6) {
  const frames = ['franck_01829', 'franck_02221', 'franck_02683', 'franck_03979', 'franck_04117', 'franck_01829'].slice(0, count);
  const [width, height] = SMOKE ? [1280, 1024] : [4000, 3000];
  return Promise.all(
    frames.map(async (frame, i) => {
      let image = sharp(path.join(ROOT, 'test/fixtures/faces', `${frame}.jpg`));
      if (i === 5) image = image.extract({ left: 108, top: 58, width: 540, height: 460 });
      image = image.resize(width, height, { fit: 'cover' });
      const pixels = await image.removeAlpha().raw().toBuffer();
      const grain = randomBytes(pixels.length);
      for (let j = 0; j < pixels.length; j++) pixels[j] = Math.min(255, Math.max(0, pixels[j] + (grain[j] % 25) - 12));
      return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    }),
  );
}

const keepAlive = new http.Agent({ keepAlive: true });

/**
 * One request over Node's HTTP client (keep-alive, as a browser keeps its connection). Not fetch with FormData:
 * sending 150 photos of 2.7 MB at once that way took this process 1.6 CPU-seconds and 1.3 s until the last
 * answer, against a local server that only read the bodies on an idle machine; each photo's body built
 * once and written as it is took 0.24 CPU-seconds and 0.4 s. Customers' browsers run on their own machines: the
 * benchmark's cost of sending must not be charged to the shop's upload answer on the same two cores.
 */
export function send(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent: keepAlive, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) for (const one of [value].flat()) responseHeaders.append(name, one);
        resolve({ status: response.statusCode, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
