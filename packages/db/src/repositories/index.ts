export * from './users.repository.js';
export * from './projects.repository.js';
export * from './catalog.repository.js';
