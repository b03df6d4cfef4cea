export { migrateReadModels } from './migrations';
export { rebuildReadModels } from './rebuild';
export { ProjectionRunner, type ProjectionObserver } from './runner';
export type { ReadModels } from './schema';
