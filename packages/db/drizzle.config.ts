// drizzle-kit reads the schema and writes SQL migrations to ./migrations (`npm run generate -w @basalt/db`).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.ts',
  out: './migrations',
});
