/**
 * In the packaged app the code lives in resources/app.asar, but the extraction child's script and the
 * packages it imports are listed in electron-builder.yml's asarUnpack and live beside the archive,
 * in app.asar.unpacked (a forked or utility process and native modules load files, not archive entries). Any
 * other URL comes back unchanged, so the same code runs from source, from dist/ and packaged.
 */
export function asarUnpackedUrl(url: URL): URL {
  if (url.protocol !== 'file:') return url;
  const pathname = url.pathname.replace(/\/app\.asar(?=\/)/, '/app.asar.unpacked');
  return pathname === url.pathname ? url : new URL(`file://${url.host}${pathname}`);
}
