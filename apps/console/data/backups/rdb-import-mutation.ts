import { useMutation } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'

export type RdbImport = Schemas['RdbImportDto']

/**
 * Uploads a dump.rdb as the raw body: the File is handed to fetch as it is, so the browser
 * streams it from disk (never read whole into the page) and the API counts it as it arrives.
 */
export async function uploadRdb(project: string, file: Blob) {
  return unwrap(
    api.POST('/v1/projects/{project}/rdb-imports', {
      params: { path: { project } },
      body: file as never,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
    }),
  )
}

export function useRdbImportMutation(project: string) {
  return useMutation({ mutationFn: (file: Blob) => uploadRdb(project, file) })
}
