/**
 * Reads of streams and of $all over the KurrentDB client's gRPC channel, the way the client reads
 * for its subscriptions. The client's own readStream and readAll go through its native bridge
 * (@kurrent/bridge 0.2.2, the newest published), which has two defects this product cannot live
 * with: its socket leaves Nagle's algorithm on, so a small read can wait ~40 ms for a delayed ACK,
 * and it reports an event's `created` time to the second only, while subscriptions report it to
 * the millisecond (the audit log's time filters need one clock). The answers go through the
 * client's own converter, so they are the client's RecordedEvent, as subscriptions deliver them.
 *
 * This uses the client's protected execute/callArguments and its generated protocol classes:
 * package.json pins the client's exact version, and the KurrentDB contract suite reads through
 * here. Back to the client's readStream/readAll once a bridge without those defects is published.
 */
import { createRequire } from 'node:module';
import {
  BACKWARDS,
  END,
  EVENT_TYPE,
  START,
  type AllStreamResolvedEvent,
  type Filter,
  type KurrentDBClient,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';

const require = createRequire(import.meta.url);
// The client's generated protocol classes and its event converter, which it does not export.
const streamsProtocol = require('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb') as ProtocolModule;
const sharedProtocol = require('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb') as ProtocolModule;
const { StreamsClient } = require('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb') as ProtocolModule;
const { convertGrpcEvent } = require('@kurrent/kurrentdb-client/dist/utils/convertGrpcEvent') as { convertGrpcEvent: (event: unknown) => ResolvedEvent };

// The generated protocol classes are plain google-protobuf JavaScript: typed here only as far as used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ProtocolModule = any;

interface ReadResponse {
  hasEvent(): boolean;
  getEvent(): unknown;
  hasStreamNotFound(): boolean;
}

interface ResponseStream extends AsyncIterable<ReadResponse> {
  cancel(): void;
}

/** What of the client this uses: protected members, present on every client of the pinned version. */
interface ClientInternals {
  execute<T>(clientClass: unknown, debugName: string, action: (grpcClient: { read(request: unknown, ...args: unknown[]): ResponseStream }) => Promise<T>): Promise<T>;
  callArguments(options: { requiresLeader?: boolean }): unknown[];
}

export interface StreamReadOptions {
  readonly fromRevision: ReadRevision;
  readonly maxCount?: number | bigint;
  readonly direction?: typeof BACKWARDS | 'forwards';
  readonly requiresLeader?: boolean;
}

export interface AllReadOptions {
  readonly fromPosition: ReadPosition;
  readonly maxCount: number;
  readonly direction?: typeof BACKWARDS | 'forwards';
  readonly filter?: Filter;
}

/** Reads of one client's server, each answered whole (a read is small: a page at most). */
export interface KurrentDbReads {
  /** The stream's events; none when it does not exist. */
  readStream(streamName: string, options: StreamReadOptions): Promise<ResolvedEvent[]>;
  readAll(options: AllReadOptions): Promise<AllStreamResolvedEvent[]>;
}

export function grpcReads(client: KurrentDBClient): KurrentDbReads {
  const internals = client as unknown as ClientInternals;
  const read = async <Resolved>(debugName: string, options: unknown, requiresLeader: boolean): Promise<Resolved[] | null> => {
    const request = new streamsProtocol.ReadReq();
    request.setOptions(options);
    return internals.execute(StreamsClient, debugName, async (grpcClient) => {
      const responses = grpcClient.read(request, ...internals.callArguments({ requiresLeader }));
      const events: Resolved[] = [];
      for await (const response of responses) {
        if (response.hasStreamNotFound()) return null;
        if (response.hasEvent()) events.push(convertGrpcEvent(response.getEvent()) as Resolved);
      }
      return events;
    });
  };

  return {
    async readStream(streamName, options) {
      const streamOptions = new streamsProtocol.ReadReq.Options.StreamOptions();
      const identifier = new sharedProtocol.StreamIdentifier();
      identifier.setStreamName(Uint8Array.from(Buffer.from(streamName, 'utf8')));
      streamOptions.setStreamIdentifier(identifier);
      if (options.fromRevision === START) streamOptions.setStart(new sharedProtocol.Empty());
      else if (options.fromRevision === END) streamOptions.setEnd(new sharedProtocol.Empty());
      else streamOptions.setRevision(options.fromRevision.toString(10));
      const readOptions = baseOptions(options.direction, options.maxCount);
      readOptions.setStream(streamOptions);
      readOptions.setNoFilter(new sharedProtocol.Empty());
      return (await read<ResolvedEvent>('readStream', readOptions, options.requiresLeader ?? false)) ?? [];
    },

    async readAll(options) {
      const allOptions = new streamsProtocol.ReadReq.Options.AllOptions();
      if (options.fromPosition === START) allOptions.setStart(new sharedProtocol.Empty());
      else if (options.fromPosition === END) allOptions.setEnd(new sharedProtocol.Empty());
      else {
        const position = new streamsProtocol.ReadReq.Options.Position();
        position.setCommitPosition(options.fromPosition.commit.toString(10));
        position.setPreparePosition(options.fromPosition.prepare.toString(10));
        allOptions.setPosition(position);
      }
      const readOptions = baseOptions(options.direction, options.maxCount);
      readOptions.setAll(allOptions);
      if (options.filter) readOptions.setFilter(filterOptions(options.filter));
      else readOptions.setNoFilter(new sharedProtocol.Empty());
      return (await read<AllStreamResolvedEvent>('readAll', readOptions, false)) ?? [];
    },
  };
}

function baseOptions(direction: StreamReadOptions['direction'], maxCount: number | bigint | undefined): ProtocolModule {
  const options = new streamsProtocol.ReadReq.Options();
  const uuidOption = new streamsProtocol.ReadReq.Options.UUIDOption();
  uuidOption.setString(new sharedProtocol.Empty());
  options.setUuidOption(uuidOption);
  options.setResolveLinks(false);
  options.setCount(String(maxCount ?? Number.MAX_SAFE_INTEGER));
  options.setReadDirection(direction === BACKWARDS ? streamsProtocol.ReadReq.Options.ReadDirection.BACKWARDS : streamsProtocol.ReadReq.Options.ReadDirection.FORWARDS);
  // Compatibility 1: the server ends the read instead of sending a "caught up" to wait on.
  const control = new streamsProtocol.ReadReq.Options.ControlOption();
  control.setCompatibility(1);
  options.setControlOption(control);
  return options;
}

function filterOptions(filter: Filter): ProtocolModule {
  const expression = new streamsProtocol.ReadReq.Options.FilterOptions.Expression();
  if ('prefixes' in filter && filter.prefixes) expression.setPrefixList([...filter.prefixes]);
  if ('regex' in filter && filter.regex) expression.setRegex(filter.regex);
  const options = new streamsProtocol.ReadReq.Options.FilterOptions();
  if (filter.filterOn === EVENT_TYPE) options.setEventType(expression);
  else options.setStreamIdentifier(expression);
  options.setCount(new sharedProtocol.Empty());
  options.setCheckpointintervalmultiplier(1);
  return options;
}
