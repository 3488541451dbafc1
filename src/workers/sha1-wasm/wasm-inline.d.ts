/** Vite's `?inline` import of the built module: a base64 data: URL (see sha1Wasm.ts). */
declare module '*.wasm?url&inline' {
  const dataUrl: string;
  export default dataUrl;
}
