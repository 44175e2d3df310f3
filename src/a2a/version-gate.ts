// The A2A version a request asks for (its A2A-Version header; none means 0.3, as the SDK reads
// it), checked before the SDK's handlers see the request. The SDK answers an older version with a
// clear error too, but also prints the error's stack trace on the server's stderr for every such
// request: a client of another version would fill the operator's log. This answers it in one
// response, the SDK's own error code and words, and prints nothing.
import type { NextFunction, Request, Response } from 'express';
import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from '@a2a-js/sdk';

/** What the SDK takes a request without the header to ask for. */
const UNSTATED_VERSION = '0.3';

/** JSON-RPC's code for an unsupported version (the SDK's VersionNotSupportedError). */
const VERSION_NOT_SUPPORTED = -32009;

export function versionGate(binding: 'jsonrpc' | 'rest') {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requested = req.header(A2A_VERSION_HEADER) || UNSTATED_VERSION;
    if (requested === A2A_PROTOCOL_VERSION) return next();
    const message = `The requested A2A protocol version '${requested.slice(0, 40)}' is not supported. Supported versions: ${A2A_PROTOCOL_VERSION} (send the ${A2A_VERSION_HEADER}: ${A2A_PROTOCOL_VERSION} header).`;
    if (binding === 'jsonrpc') {
      // The request's id is in a body not read yet: JSON-RPC answers such an error with a null id.
      res.json({ jsonrpc: '2.0', id: null, error: { code: VERSION_NOT_SUPPORTED, message } });
      return;
    }
    res.status(400).json({ error: { code: 400, status: 'FAILED_PRECONDITION', message } });
  };
}
