// The WebAssembly backend of TensorFlow.js (4.22, pinned in package.json) runs a convolution through XNNPACK:
// on the first run of a convolution it packs the filter into XNNPACK's own buffer and keeps that operator,
// found again by the filter's and the bias's tensor ids and the convolution's shape (strides, padding,
// channels; not the input's size), for as long as the filter tensor lives (tfjs-backend-wasm's
// src/cc/conv2d_impl.cc). From then on the filter tensor's own memory is never read again, yet it stays in the
// models' WebAssembly memory, which only ever grows: 21 MB for the face descriptor net.
//
// releasePackedFilters() gives that memory back to the WebAssembly heap (where the other models' work reuses
// it) once each convolution has run, and points the tensor's record at a small block of its own, so that a
// later dispose frees that block and the operator with it as before. It is only for filters that feed nothing
// but convolutions already run with every set of arguments they will ever be run with: a convolution run
// anew with such a filter (another stride, another bias) would pack freed memory. The tests compare a released
// net's descriptors with an unreleased one's, bit for bit, and fail if the backend's records change shape.
import * as tf from '@tensorflow/tfjs-core';

interface WasmTensorRecord {
  memoryOffset: number | null;
}
interface WasmBackendInternals {
  wasm: { _malloc(bytes: number): number; _free(offset: number): void };
  dataIdMap: { get(dataId: object): WasmTensorRecord | undefined };
}

/** A filter tensor's memory in the WebAssembly heap, if the backend is the one described above. */
function recordOf(filter: tf.Tensor): WasmTensorRecord | null {
  if (tf.getBackend() !== 'wasm') return null;
  const backend = tf.backend() as unknown as Partial<WasmBackendInternals>;
  if (typeof backend.wasm?._free !== 'function' || typeof backend.wasm._malloc !== 'function' || typeof backend.dataIdMap?.get !== 'function') return null;
  const record = backend.dataIdMap.get(filter.dataId);
  return record && typeof record.memoryOffset === 'number' && record.memoryOffset > 0 ? record : null;
}

/**
 * For each filter: runs its `prepare` (every convolution of that filter, once, as the model will run it), then
 * frees the filter's memory, so the next filter's packing can use it. Returns the bytes freed: 0 where the
 * backend is not the WebAssembly one this was written for (nothing is freed then; the model works as before).
 */
export function releasePackedFilters(filters: readonly { filter: tf.Tensor; prepare: () => void }[]): number {
  const records = filters.map(({ filter }) => recordOf(filter));
  if (records.some((record) => record === null)) return 0;
  const { wasm } = tf.backend() as unknown as WasmBackendInternals;
  let freed = 0;
  filters.forEach(({ filter, prepare }, index) => {
    prepare();
    const record = records[index]!;
    wasm._free(record.memoryOffset!);
    // A later dispose frees this block (and deletes the packed operator) instead of the memory given back.
    record.memoryOffset = wasm._malloc(16) >>> 0;
    freed += filter.size * 4;
  });
  return freed;
}
