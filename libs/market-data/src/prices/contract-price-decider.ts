import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { contractPriceStateSavedV1, indexPriceFedV1, type Markets, Topics } from '@exchange/contracts';
import type { Consumer, EventLog, IncomingRecord, OutgoingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, MARKETS, Readiness } from '@exchange/platform';
import {
  advanceContractPrices,
  advanceOnEvent,
  ContractPriceBoard,
  contractPriceConfigOf,
  type ContractPriceState,
  type FixedRates,
  initialContractPriceState,
  type LastInputs,
  type MarketChange,
  noteFixedRates,
  type PriceInput,
  type PriceOutput,
  PriceDecimal,
  priceRecordOf,
  restorePriceRecord,
  seedInputsOf,
} from '../domain';
import { MarketReader } from '../reading/market-reader';

const parse = <T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  record: IncomingRecord,
): T | undefined => {
  try {
    const parsed = schema.safeParse(JSON.parse(record.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Index and mark prices and funding rates (CONTRACTS.md), decided in every market-data replica
 * from its fold of order.events and the operator's index feed, and published: outputs to
 * market.contract-prices (the ledger's input), each contract's state to market.contract-price-state.
 * Every replica reads the state topic into its board and serves from it (the first record of an
 * event time wins), so replicas at the same offsets serve the same prices whichever replica
 * decided them; a decider starts from the board's records. See README "Index and mark prices".
 */
@Injectable()
export class ContractPriceDecider implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly state: ContractPriceState;
  private readonly fixed: FixedRates = new Map();
  private readonly lastInputs: LastInputs = new Map();
  private readonly indexSymbols: Set<string>;
  /** The second of event time each contract's state was last published at. */
  private readonly published = new Map<string, number>();
  /** The step at the current event time: decisions of one time are told apart by it. */
  private step = { at: -1, seq: 0 };
  private readonly consumers: Promise<Consumer>[] = [];
  private deciding = false;
  private publishing: Promise<void> = Promise.resolve();

  constructor(
    private readonly reader: MarketReader,
    readonly board: ContractPriceBoard,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    readiness.register('market-data: contract prices', () => this.deciding || markets.contracts.length === 0);
    this.state = initialContractPriceState(markets.contracts.map(contractPriceConfigOf));
    this.indexSymbols = new Set(markets.contracts.filter((c) => c.indexSource === 'spot').map((c) => c.index));
    reader.onFolded((partition, changes) => this.onFolded(partition, changes));
  }

  onApplicationBootstrap(): void {
    if (this.markets.contracts.length === 0) return;
    this.consumers.push(this.follow(Topics.contractPriceState.name, (record) => this.onStateRecord(record)));
    this.consumers.push(this.follow(Topics.indexPrices.name, (record) => this.onIndexRecord(record)));
    void this.begin().catch((error: unknown) =>
      this.logger.error({ err: error }, 'market-data: contract prices failed to start'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.deciding = false;
    for (const joining of this.consumers) await (await joining.catch(() => undefined))?.stop();
    await this.publishing;
  }

  /** Starts deciding once the fold has caught up and the board holds every saved state. */
  private async begin(): Promise<void> {
    await this.reader.caughtUp;
    const end = (await this.log.endOffsets(Topics.contractPriceState.name))[0] ?? 0;
    await this.log.read(
      Topics.contractPriceState.name,
      0,
      0,
      async (records) => records.forEach((r) => this.onStateRecord(r)),
      end,
    );
    for (const record of this.board.all()) {
      restorePriceRecord(this.state, this.fixed, record);
      if (record.at > this.step.at || (record.at === this.step.at && record.seq > this.step.seq))
        this.step = { at: record.at, seq: record.seq };
    }
    const sources = [...this.indexSymbols, ...this.markets.contracts.map((c) => c.symbol)];
    this.deciding = true;
    this.decide(seedInputsOf(this.reader.fold, sources));
  }

  private follow(topic: string, onRecord: (record: IncomingRecord) => void): Promise<Consumer> {
    const joining = this.log.consume({
      groupId: `market-data.${topic}.${process.pid}.${Math.random().toString(36).slice(2)}`,
      topics: [topic],
      ephemeral: true,
      fromBeginning: true,
      eachBatch: async (batch) => batch.records.forEach(onRecord),
    });
    joining.catch((error: unknown) =>
      this.logger.error({ err: error, topic }, 'market-data: contract prices consumer failed to start'),
    );
    return joining;
  }

  private onStateRecord(record: IncomingRecord): void {
    const saved = parse(contractPriceStateSavedV1, record);
    if (saved) this.board.accept(saved.payload);
  }

  /** A fed price applies at its own time (the operator's call), or the fold's if that is later. */
  private onIndexRecord(record: IncomingRecord): void {
    const fed = parse(indexPriceFedV1, record);
    if (!fed) return;
    const input: PriceInput = { type: 'ExternalIndex', index: fed.payload.index, price: fed.payload.price, at: fed.ts };
    if (this.deciding) this.decide([input]);
    else this.state.external.set(input.index, new PriceDecimal(input.price));
  }

  private onFolded(partition: number, changes: readonly MarketChange[]): void {
    if (!this.deciding) return;
    const outputs = advanceOnEvent(
      this.state,
      this.lastInputs,
      this.reader.fold,
      partition,
      changes,
      this.indexSymbols,
    );
    if (outputs) this.publish(outputs);
  }

  private decide(inputs: readonly PriceInput[]): void {
    this.publish(inputs.flatMap((input) => advanceContractPrices(this.state, input)));
  }

  /** The outputs, and the state of each contract that is due, to their topics (in the order decided). */
  private publish(outputs: readonly PriceOutput[]): void {
    noteFixedRates(this.fixed, outputs);
    const states = this.stateRecords(outputs);
    if (outputs.length === 0 && states.length === 0) return;
    const records = [...outputs.map((o) => outputRecord(o, this.step.seq)), ...states];
    this.publishing = this.publishing
      .then(() => this.log.publish(records))
      .catch((error: unknown) =>
        this.logger.warn(
          { err: error },
          'market-data: contract prices not published; the next change publishes the state again',
        ),
      );
  }

  /** A contract's state once per second of event time, and whenever its prices moved. */
  private stateRecords(outputs: readonly PriceOutput[]): OutgoingRecord[] {
    const second = Math.floor(this.state.at / 1000);
    const moved = new Set(outputs.map((o) => o.symbol));
    const due = [...this.state.contracts.values()].filter(
      (p) => moved.has(p.config.symbol) || this.published.get(p.config.symbol) !== second,
    );
    if (due.length === 0) return [];
    this.step =
      this.step.at === this.state.at ? { at: this.state.at, seq: this.step.seq + 1 } : { at: this.state.at, seq: 0 };
    const records: OutgoingRecord[] = [];
    for (const prices of due) {
      const symbol = prices.config.symbol;
      this.published.set(symbol, second);
      const payload = priceRecordOf(this.state, prices, this.fixed, this.step.seq);
      const message = {
        type: 'ContractPriceStateSaved',
        v: 1,
        id: `ContractPriceStateSaved:${symbol}:${payload.at}:${payload.seq}`,
        ts: payload.at,
        payload,
      };
      records.push({ topic: Topics.contractPriceState.name, key: symbol, value: JSON.stringify(message) });
    }
    return records;
  }
}

function outputRecord(output: PriceOutput, seq: number): OutgoingRecord {
  const { type, ...payload } = output;
  // A funding time is fixed once; prices may change several times at one event time.
  const id =
    output.type === 'ContractPricesChanged'
      ? `${type}:${output.symbol}:${output.at}:${seq}`
      : `${type}:${output.symbol}:${output.fundingTime}`;
  const ts = output.type === 'ContractPricesChanged' ? output.at : output.fundingTime;
  const message = { type, v: 1, id, ts, payload };
  return { topic: Topics.contractPrices.name, key: output.symbol, value: JSON.stringify(message) };
}
