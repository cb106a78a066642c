import { Module } from '@nestjs/common';
import { LEDGER_PROJECTION_GROUP, type Markets, Topics } from '@exchange/contracts';
import { type EventLog, projectionReadGateProvider } from '@exchange/messaging';
import {
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  EVENT_LOG,
  LISTEN_KEYS,
  type ListenKeyStore,
  LOGGER,
  type Logger,
  MARKETS,
  Metrics,
} from '@exchange/platform';
import { ledgerQueryProviders, StreamStartReader } from '@exchange/ledger-query';
import { UserStreamSocketServer } from './sockets/user-stream-socket-server';
import { AccountStreams } from './streaming/account-streams';
import { LedgerEventFeed } from './streaming/ledger-event-feed';
import { UserStreamLifecycle } from './user-stream.lifecycle';

const LEDGER_READ_GATE = Symbol('USER_STREAM_LEDGER_READ_GATE');

/** The user data stream: WebSocket /openapi/ws/<listenKey> with the spot and contract events of spec 6 from ledger.events. */
@Module({
  providers: [
    // A socket's stream starts where the ledger's projection stands: it waits for it to pass what was journaled when the socket came.
    projectionReadGateProvider(LEDGER_READ_GATE, LEDGER_PROJECTION_GROUP, Topics.ledgerEvents.name),
    ...ledgerQueryProviders('USER_STREAM_LEDGER_READ_SOURCE', LEDGER_READ_GATE),
    {
      provide: AccountStreams,
      inject: [StreamStartReader, MARKETS, Metrics],
      useFactory: (reader: StreamStartReader, markets: Markets, metrics: Metrics) => {
        const frames = metrics.counter(
          'user_stream_frames_total',
          'Frames rendered and encoded (once each, whatever the number of sockets)',
          ['e'],
        );
        const streams = new AccountStreams(reader, markets, (frame) => frames.inc({ e: frame.e }));
        metrics.gauge('user_stream_accounts', 'Accounts this replica streams', [], (g) => g.set(streams.size));
        metrics.gauge(
          'user_stream_contract_orders',
          'Open contract orders this replica keeps to report their fills',
          [],
          (g) => g.set(streams.contractOrderCount),
        );
        return streams;
      },
    },
    {
      provide: LedgerEventFeed,
      inject: [EVENT_LOG, LOGGER, AccountStreams, UserStreamSocketServer],
      useFactory: (log: EventLog, logger: Logger, streams: AccountStreams, sockets: UserStreamSocketServer) =>
        new LedgerEventFeed(log, logger, (event) => {
          streams.apply(event);
          if (event.type === 'ApiKeyRevoked') sockets.revokeApiKey(event.payload.apiKey);
        }),
    },
    {
      provide: UserStreamSocketServer,
      inject: [LISTEN_KEYS, AccountStreams, StreamStartReader, CLOCK, LOGGER, CONFIG, Metrics],
      useFactory: (
        store: ListenKeyStore,
        streams: AccountStreams,
        reader: StreamStartReader,
        clock: Clock,
        logger: Logger,
        config: Config,
        metrics: Metrics,
      ) => {
        const slow = metrics.counter(
          'user_stream_slow_consumers_total',
          'Sockets dropped because their unsent frames passed USER_STREAM_MAX_BUFFERED_BYTES',
        );
        const abusive = metrics.counter(
          'user_stream_abusive_sockets_total',
          'Sockets closed (1008) for sending more than WS_MAX_MESSAGES_PER_SECOND',
        );
        const refused = metrics.counter(
          'user_stream_refused_sockets_total',
          'Sockets refused because their address held WS_MAX_SOCKETS_PER_IP',
        );
        const server = new UserStreamSocketServer(
          store,
          streams,
          reader,
          clock,
          logger,
          {
            sweepIntervalMs: config.USER_STREAM_SWEEP_INTERVAL_MS,
            maxApiKeyEntries: config.USER_STREAM_API_KEY_CACHE_MAX_ENTRIES,
            maxBufferedBytes: config.USER_STREAM_MAX_BUFFERED_BYTES,
            maxMessagesPerSecond: config.WS_MAX_MESSAGES_PER_SECOND,
            maxSocketsPerIp: config.WS_MAX_SOCKETS_PER_IP,
            trustedProxies: config.TRUSTED_PROXIES,
          },
          { slowConsumer: () => slow.inc(), abusive: () => abusive.inc(), refused: () => refused.inc() },
        );
        metrics.gauge('user_stream_sockets', 'Open user data stream sockets', [], (g) => g.set(server.socketCount));
        return server;
      },
    },
    UserStreamLifecycle,
  ],
})
export class UserStreamModule {}
