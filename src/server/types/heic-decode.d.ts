// heic-decode ships no types: the part of its API the upload pipeline uses (libheif in WebAssembly).
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 4 bytes a pixel, rotation and mirroring applied. */
    data: Uint8ClampedArray;
  }
  interface LazyImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface Decode {
    (input: { buffer: ArrayBufferView | ArrayBuffer }): Promise<DecodedImage>;
    all(input: { buffer: ArrayBufferView | ArrayBuffer }): Promise<LazyImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}
