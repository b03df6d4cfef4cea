export { dropReadModels, migrateReadModels } from './migrations';
export { rebuildReadModels } from './rebuild';
export { ProjectionRunner, READ_MODEL_PROJECTIONS } from './runner';
export type { ReadModels } from './schema';
