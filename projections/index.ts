export { migrateReadModels } from './migrations';
export { rebuildReadModels } from './rebuild';
export { ProjectionRunner } from './runner';
export type { ReadModels } from './schema';
