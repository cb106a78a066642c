import { ApiError, ErrorCode } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { FenceTimeout, type OffsetFence } from './offset-fence';

/**
 * The data source of a projection's readers, each query first waiting until the projection has
 * passed what its topic held when the query arrived (OffsetFence): a read after a reply reflects
 * it, whichever replica gave the reply. A projection too far behind to pass in time answers as a
 * busy backend does (503 / -1016), never with data older than a reply the client holds.
 */
export function fencedDataSource(dataSource: DataSource, fence: OffsetFence): DataSource {
  const query = async (...args: Parameters<DataSource['query']>): Promise<unknown> => {
    try {
      await fence.passed();
    } catch (error) {
      if (error instanceof FenceTimeout) throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is busy and cannot answer this query right now; try again shortly.');
      throw error;
    }
    return dataSource.query(...args);
  };
  return new Proxy(dataSource, { get: (target, property, receiver) => (property === 'query' ? query : Reflect.get(target, property, receiver)) });
}
