/**
 * The shards' code (node/shards), for `neardup fingerprints` and `join` only: required on first
 * use, so that in the bundle its set-up (node:zlib, node:crypto, ~5 ms) runs for those commands,
 * not at every start-up of the CLI (issue 16).
 */
import type * as DaskJoin from '../../node/shards/daskJoin';
import type * as JoinShards from '../../node/shards/joinShards';
import type * as ShardFormat from '../../node/shards/shardFormat';
import type * as WriteShard from '../../node/shards/writeShard';

export function shardParts(): typeof DaskJoin & typeof JoinShards & typeof ShardFormat & typeof WriteShard {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require('../../node/shards/daskJoin') as typeof DaskJoin),
    ...(require('../../node/shards/joinShards') as typeof JoinShards),
    ...(require('../../node/shards/shardFormat') as typeof ShardFormat),
    ...(require('../../node/shards/writeShard') as typeof WriteShard),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}
