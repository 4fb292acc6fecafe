/**
 * Headers `fetch` can never send as asked: the HTTP stack writes them itself
 * (message framing, connection management), so fetch throws before anything
 * goes out (Node) or drops them (browsers), and its error would read as a
 * network failure and be retried. The HTTP client refuses them before
 * sending (`UnsendableRequestError`), as it does a TRACE and a body on GET or
 * HEAD, and the generator warns about header parameters of these names.
 * Content-Length is not here: fetch writes the right one from the body, so a
 * parameter of that name is left out of the client instead (with a warning).
 */
export const UNSENDABLE_HEADER = /^(?:connection|expect|host|keep-alive|transfer-encoding|upgrade)$/i;
