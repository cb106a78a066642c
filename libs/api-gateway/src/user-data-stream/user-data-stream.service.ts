import { ApiError, ErrorCode, LISTEN_KEY_FORMAT, type ListenKeyRecord, type ListenKeyStore } from '@exchange/platform';
import type { SignedRequest } from '../auth/private-route';
import type { AuthContext } from '../auth/signed-request-authenticator';
import type { UserDataStreamEndpoints as E } from './user-data-stream.endpoints';

/**
 * listenKeys (spec 4.4): one live key per API key, valid 60 minutes from its opening or last
 * keep-alive. The stream itself is served by user-stream, which reads the same store.
 */
export class UserDataStreamService {
  constructor(private readonly store: ListenKeyStore) {}

  /** The key's live listenKey (its validity renewed) or a new one. */
  async open(ctx: AuthContext): Promise<{ listenKey: string }> {
    const account = ctx.key.account;
    const record = await this.store.open({
      apiKey: ctx.key.apiKey,
      accountId: account.accountId,
      userId: account.userId,
    });
    return { listenKey: record.listenKey };
  }

  async keepAlive(ctx: SignedRequest<typeof E.keepAlive>): Promise<Record<string, never>> {
    const record = await this.ownedKey(ctx);
    if (!(await this.store.extend(record.listenKey))) throw unknownKey();
    return {};
  }

  /** Ends the key; every replica of user-stream closes its sockets. */
  async close(ctx: SignedRequest<typeof E.close>): Promise<Record<string, never>> {
    const record = await this.ownedKey(ctx);
    if (!(await this.store.remove(record.listenKey))) throw unknownKey();
    return {};
  }

  private async ownedKey(ctx: SignedRequest<typeof E.close>): Promise<ListenKeyRecord> {
    const { listenKey } = ctx.query;
    if (!LISTEN_KEY_FORMAT.test(listenKey)) throw unknownKey();
    const record = await this.store.find(listenKey);
    if (!record) throw unknownKey();
    if (record.apiKey !== ctx.key.apiKey)
      throw new ApiError(ErrorCode.REJECTED_API_KEY, 'This listenKey belongs to another API key.', 403);
    return record;
  }
}

function unknownKey(): ApiError {
  return new ApiError(ErrorCode.INVALID_LISTEN_KEY, 'This listenKey does not exist.');
}
