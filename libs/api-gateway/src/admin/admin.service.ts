import { randomBytes } from 'node:crypto';
import {
  type LedgerAccountCommand,
  type Markets,
  type MessageDraft,
  type Permission,
  Topics,
} from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { ApiError, type Clock, ErrorCode, type IdGenerator, type SecretBox } from '@exchange/platform';
import type { AccountService, BalanceView } from '../account/account.service';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';
import type { LedgerClient } from '../ledger-client/ledger-client';
import type { WalletAdminService } from '../wallet/wallet-admin.service';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 64 characters of [A-Za-z0-9], unbiased. */
export function randomKey(): string {
  let out = '';
  while (out.length < 64) {
    for (const byte of randomBytes(96)) {
      if (byte < 248 && out.length < 64) out += KEY_ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface AdminAccountView {
  accountId: string;
  balances: BalanceView[];
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
}

/** The operator API's work (API-DECISIONS.md, Operator API): every change is a ledger command. */

export class AdminService {
  constructor(
    private readonly reader: LedgerReader,
    private readonly ledger: LedgerClient,
    private readonly accounts: AccountService,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly log: EventLog,
    private readonly wallet: WalletAdminService,
  ) {}

  async createUser(
    name: string | undefined,
    correlationId?: string,
  ): Promise<{ userId: string; accounts: { accountId: string; accountType: number; accountIndex: number }[] }> {
    const userId = this.ids.next();
    const event = await this.ledger.execute(
      this.command({
        type: 'CreateUser',
        payload: { userId, name: name ?? '', accountIds: [this.ids.next(), this.ids.next(), this.ids.next()] },
      }),
      'UserCreated',
      { correlationId },
    );
    return {
      userId,
      accounts: event.payload.accounts.map((a) => ({
        accountId: a.accountId,
        accountType: a.accountType,
        accountIndex: a.accountIndex,
      })),
    };
  }

  async createSubAccount(
    userId: string,
    accountName: string,
    accountType: 1 | 3,
    correlationId?: string,
  ): Promise<{ accountId: string; accountName: string; accountType: number; accountIndex: number }> {
    if (!(await this.reader.userExists(userId))) throw ApiError.invalid('userId', `user ${userId} does not exist`);
    const event = await this.ledger.execute(
      this.command({
        type: 'CreateSubAccount',
        payload: { userId, accountId: this.ids.next(), accountType, accountName },
      }),
      'SubAccountCreated',
      { correlationId },
    );
    const a = event.payload.account;
    return {
      accountId: a.accountId,
      accountName: a.accountName,
      accountType: a.accountType,
      accountIndex: a.accountIndex,
    };
  }

  async createApiKey(
    accountId: string,
    permissions: Permission[],
    correlationId?: string,
  ): Promise<{ apiKey: string; secretKey: string; accountId: string; permissions: Permission[] }> {
    const account = await this.requireAccount(accountId);
    const apiKey = randomKey();
    const secretKey = randomKey();
    const event = await this.ledger.execute(
      this.command({
        type: 'CreateApiKey',
        payload: {
          userId: account.userId,
          accountId,
          apiKey,
          secretCiphertext: this.box.encrypt(secretKey),
          permissions,
        },
      }),
      'ApiKeyCreated',
      { correlationId },
    );
    return { apiKey, secretKey, accountId, permissions: event.payload.permissions };
  }

  async listApiKeys(
    accountId: string,
  ): Promise<{ apiKey: string; accountId: string; permissions: Permission[]; created: number }[]> {
    await this.requireAccount(accountId);
    return (await this.reader.apiKeysOf(accountId)).map((k) => ({
      apiKey: k.apiKey,
      accountId: k.accountId,
      permissions: k.permissions,
      created: k.created,
    }));
  }

  async revokeApiKey(apiKey: string, correlationId?: string): Promise<Record<string, never>> {
    const key = await this.reader.apiKey(apiKey);
    if (!key) throw ApiError.invalid('apiKey', 'no such API key');
    if (!key.revoked)
      await this.ledger.execute(
        this.command({ type: 'RevokeApiKey', payload: { userId: key.userId, apiKey } }),
        'ApiKeyRevoked',
        { correlationId },
      );
    return {};
  }

  /** The simulated chain delivering a deposit to the account (through the wallet, which credits it once). */
  deposit(
    accountId: string,
    asset: string,
    amount: string,
    options: { address?: string; txid?: string; confirmations?: number; chainType?: string } = {},
  ) {
    return this.wallet.deposit({ accountId, asset, amount, ...options });
  }

  async account(accountId: string): Promise<AdminAccountView> {
    await this.requireAccount(accountId);
    const view = await this.accounts.accountView(accountId);
    return { accountId, ...view };
  }

  async setFlags(
    accountId: string,
    flags: { canTrade?: boolean; canWithdraw?: boolean; canDeposit?: boolean },
    correlationId?: string,
  ): Promise<AdminAccountView> {
    const account = await this.requireAccount(accountId);
    await this.ledger.execute(
      this.command({ type: 'SetAccountFlags', payload: { userId: account.userId, accountId, ...flags } }),
      'AccountFlagsSet',
      { correlationId },
    );
    return this.account(accountId);
  }

  /**
   * A status change is a command on the symbol's own order.commands stream, so the engine (and a
   * replay of it) sees it in order with the orders; HALT and BREAK refuse new orders, cancels go on.
   */
  async setSymbolStatus(
    symbolName: string,
    status: 'TRADING' | 'HALT' | 'BREAK',
  ): Promise<{ symbol: string; status: string; baseAsset: string; quoteAsset: string }> {
    // A contract's book is halted the same way; brokerInfo names the contract its own base asset.
    const contract = this.markets.contract(symbolName);
    const spot = this.markets.symbol(symbolName);
    const record = contract
      ? { symbol: contract.symbol, baseAsset: contract.symbol, quoteAsset: contract.marginToken }
      : spot && { symbol: spot.symbol, baseAsset: spot.baseAsset, quoteAsset: spot.quoteAsset };
    if (!record) throw new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbolName}'.`);
    const command = {
      type: 'SetSymbolStatus',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: { symbol: record.symbol, status },
    };
    await this.log.publish([{ topic: Topics.orderCommands.name, key: record.symbol, value: JSON.stringify(command) }]);
    return { ...record, status };
  }

  private async requireAccount(accountId: string): Promise<AccountRow> {
    if (!/^[1-9]\d{0,15}$/.test(accountId)) throw ApiError.invalid('accountId', 'expected an account id');
    const account = await this.reader.account(accountId);
    if (!account) throw ApiError.invalid('accountId', `account ${accountId} does not exist`);
    return account;
  }

  private command(draft: MessageDraft<LedgerAccountCommand>): LedgerAccountCommand {
    return { ...draft, v: 1, id: this.ids.next(), ts: this.clock.now() };
  }
}
