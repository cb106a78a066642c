import { z } from 'zod';
import { param } from '../auth/endpoint-params';
import { privateEndpoint } from '../auth/private-route';

/** API-DECISIONS.md: the header and `read` are needed; timestamp and recvWindow are checked; a signature is verified when sent. */
const stream = { weight: 1, permission: 'read', signatureOptional: true, path: '' } as const;
const listenKeyParams = z.object({ listenKey: param.text('the key POST returned (60 characters)') });
const emptySchema = z.object({}).strict();
const unknownKey = "-1125 for an unknown or expired key, -2015 for another API key's.";

/** listenKeys of the user data stream (spec 4.4). */
export const UserDataStreamEndpoints = {
  open: privateEndpoint({
    ...stream,
    method: 'POST',
    summary: "Start a user data stream (or renew the API key's live one)",
    description: 'One live listenKey per API key, valid 60 minutes. Connect to WebSocket /openapi/ws/<listenKey>.',
    ok: z.object({ listenKey: z.string().regex(/^[A-Za-z0-9]{60}$/) }).strict(),
    params: z.object({}),
  }),
  keepAlive: privateEndpoint({
    ...stream,
    method: 'PUT',
    summary: 'Keep a listenKey alive for 60 more minutes',
    description: unknownKey,
    ok: emptySchema,
    params: listenKeyParams,
  }),
  close: privateEndpoint({
    ...stream,
    method: 'DELETE',
    summary: 'Close a user data stream and every socket on it',
    description: unknownKey,
    ok: emptySchema,
    params: listenKeyParams,
  }),
};
