import {
  type ContractJournalEvent,
  isContractJournalEvent,
  type LedgerJournalEvent,
  type Markets,
} from '@exchange/contracts';
import type { StreamStartReader } from '@exchange/ledger-query';
import {
  type AccountStreamState,
  nextEventTime,
  streamLedgerEvent,
  streamNamedContractEvent,
} from '../domain/account-stream';
import { ContractOrderMemory, type ContractOrderView, namedAccountsOf } from '../domain/contract-orders-seen';
import { SpotOrderMemory } from '../domain/spot-orders-seen';
import type { StreamFrame } from '../domain/stream-frames';

/**
 * Where an account's stream starts: the ledger's tables for a replica (with the open spot and
 * contract orders it may report fills of), the journal's account openings for a replay (which sees every order placed).
 */
export type StreamStarts = Pick<StreamStartReader, 'start'> &
  Partial<Pick<StreamStartReader, 'openContractOrders' | 'openOrders'>>;

/** Where an account's frames go: one per socket. */
export interface FrameSink {
  deliver(frame: Buffer): void;
}

export interface AccountStream {
  userId: string;
  state: AccountStreamState;
  sinks: Set<FrameSink>;
}

/** The places an asset's amounts are streamed with: the asset's precision, 8 for an asset the markets do not list. */
export function streamedPlaces(markets: Markets, asset: string): number {
  return markets.asset(asset)?.precision ?? 8;
}

/** An account without sockets is forgotten once its last E is this far behind the clock (so E never goes back). */
const IDLE_RETENTION_MS = 60_000;

/**
 * The accounts this replica streams, by user (ledger events are keyed by user). Each ledger event
 * is turned into frames once per account and each frame is encoded once: the same bytes go to
 * every socket of the account.
 */
export class AccountStreams {
  private readonly accounts = new Map<string, AccountStream>();
  private readonly byUser = new Map<string, Set<AccountStream>>();
  /** Streams by the contracts account they carry: for the accounts a partition's price or funding decision names. */
  private readonly byContracts = new Map<string, Set<AccountStream>>();
  /** The last sequence of another user's contracts event delivered by the accounts it names (a redelivery gives nothing). */
  private readonly namedSeq = new Map<string, number>();
  private readonly loading = new Map<string, Promise<AccountStream | undefined>>();
  private readonly contractOrders = new ContractOrderMemory();
  private readonly spotOrders = new SpotOrderMemory();

  constructor(
    private readonly reader: StreamStarts,
    private readonly markets: Markets,
    private readonly onFrame: (frame: StreamFrame) => void = () => undefined,
  ) {}

  /** The account's stream, starting at what the ledger's tables hold now; undefined for an unknown account. */
  prepare(accountId: string): Promise<AccountStream | undefined> {
    const current = this.accounts.get(accountId);
    if (current) return Promise.resolve(current);
    let loading = this.loading.get(accountId);
    if (!loading) {
      loading = this.load(accountId).finally(() => this.loading.delete(accountId));
      this.loading.set(accountId, loading);
    }
    return loading;
  }

  /** Adds a socket to a prepared stream (put back if it was forgotten meanwhile: the socket is not open yet, so nothing was owed to it). */
  join(prepared: AccountStream, sink: FrameSink): AccountStream {
    const stream = this.accounts.get(prepared.state.accountId) ?? this.track(prepared);
    stream.sinks.add(sink);
    return stream;
  }

  leave(stream: AccountStream, sink: FrameSink): void {
    stream.sinks.delete(sink);
  }

  /** Every event of ledger.events, whether or not its user is streamed here (the orders it changes are kept for later sockets). */
  apply(event: LedgerJournalEvent): void {
    const contractOrder = isContractJournalEvent(event) ? this.contractOrders.observe(event) : undefined;
    if (isContractJournalEvent(event)) this.applyNamed(event, contractOrder);
    const spotOrder = this.spotOrders.observe(event);
    const streams = this.byUser.get(event.payload.userId);
    if (!streams) return;
    for (const stream of streams) {
      const step = streamLedgerEvent(stream.state, event, this.precisionOf, contractOrder, spotOrder);
      stream.state = step.state;
      for (const frame of step.frames) this.send(stream, frame);
    }
  }

  /**
   * A contracts event journaled under another user than the accounts it names: a ledger
   * partition's system user decides funding, liquidations and stop triggers for its accounts.
   * Each named account's streams get its frames; the user's sequence does not apply to them.
   */
  private applyNamed(event: ContractJournalEvent, contractOrder: ContractOrderView | undefined): void {
    const { userId, seq } = event.payload;
    const targets = namedAccountsOf(event).flatMap((accountId) =>
      [...(this.byContracts.get(accountId) ?? [])].filter((s) => s.userId !== userId),
    );
    if (targets.length === 0 || seq <= (this.namedSeq.get(userId) ?? 0)) return;
    this.namedSeq.set(userId, seq);
    for (const stream of new Set(targets)) {
      const step = streamNamedContractEvent(stream.state, event, this.precisionOf, contractOrder);
      stream.state = step.state;
      for (const frame of step.frames) this.send(stream, frame);
    }
  }

  /** A frame of the stream's own (listenKeyExpired) to some of the account's sockets, with the account's next E. */
  sendOwn(stream: AccountStream, ts: number, build: (E: number) => StreamFrame, sinks: Iterable<FrameSink>): void {
    const E = nextEventTime(stream.state.lastE, ts);
    stream.state = { ...stream.state, lastE: E };
    const frame = build(E);
    this.onFrame(frame);
    const data = Buffer.from(JSON.stringify(frame));
    for (const sink of sinks) sink.deliver(data);
  }

  /** Forgets accounts that have had no socket for a while. */
  sweep(now: number): void {
    for (const stream of this.accounts.values()) {
      if (stream.sinks.size === 0 && stream.state.lastE < now - IDLE_RETENTION_MS) this.untrack(stream);
    }
  }

  get size(): number {
    return this.accounts.size;
  }

  /** Open contract orders this replica keeps for reports. */
  get contractOrderCount(): number {
    return this.contractOrders.size;
  }

  private send(stream: AccountStream, frame: StreamFrame): void {
    this.onFrame(frame);
    if (stream.sinks.size === 0) return;
    const data = Buffer.from(JSON.stringify(frame));
    for (const sink of stream.sinks) sink.deliver(data);
  }

  private readonly precisionOf = (asset: string): number => streamedPlaces(this.markets, asset);

  private async load(accountId: string): Promise<AccountStream | undefined> {
    // The open orders first: the stream starts at a sequence no lower than theirs, so no event between the two reads is missed by both.
    const open = await this.reader.openOrders?.(accountId);
    const start = await this.reader.start(accountId);
    if (!start) return undefined;
    if (open) this.spotOrders.seed(start.userId, open.seq, open.orders);
    if (start.contracts && this.reader.openContractOrders) {
      const open = await this.reader.openContractOrders(start.contracts.accountId);
      this.contractOrders.seed(start.userId, open.seq, open.orders);
    }
    const current = this.accounts.get(accountId);
    if (current) return current;
    const state: AccountStreamState = {
      accountId,
      flags: start.flags,
      lastSeq: start.seq,
      lastE: 0,
      ...(start.contracts ? { contracts: start.contracts } : {}),
    };
    return this.track({ userId: start.userId, state, sinks: new Set() });
  }

  private track(stream: AccountStream): AccountStream {
    this.accounts.set(stream.state.accountId, stream);
    let ofUser = this.byUser.get(stream.userId);
    if (!ofUser) this.byUser.set(stream.userId, (ofUser = new Set()));
    ofUser.add(stream);
    const contracts = stream.state.contracts?.accountId;
    if (contracts !== undefined) {
      let carrying = this.byContracts.get(contracts);
      if (!carrying) this.byContracts.set(contracts, (carrying = new Set()));
      carrying.add(stream);
    }
    return stream;
  }

  private untrack(stream: AccountStream): void {
    this.accounts.delete(stream.state.accountId);
    const ofUser = this.byUser.get(stream.userId);
    ofUser?.delete(stream);
    if (ofUser?.size === 0) this.byUser.delete(stream.userId);
    const contracts = stream.state.contracts?.accountId;
    const carrying = contracts === undefined ? undefined : this.byContracts.get(contracts);
    carrying?.delete(stream);
    if (carrying?.size === 0) this.byContracts.delete(contracts!);
  }
}
