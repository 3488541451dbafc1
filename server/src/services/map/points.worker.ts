/** Worker thread: builds point indexes (services/map/points-thread.ts). */
import { serveInThread } from '../../lib/worker-thread';
import { buildPointIndexOfFile } from './points-thread';

serveInThread(buildPointIndexOfFile, () => null);
