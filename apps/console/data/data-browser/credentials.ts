// The database user the data browser acts as. The password lives in React state for the page's
// life only (never localStorage, never a query key, never a URL) and rides on each request in
// the two headers the API reads.
import { DATA_PASSWORD_HEADER, DATA_USER_HEADER } from '@basalt/api-client/rules'

export interface DatabaseLogin {
  username: string
  password: string
}

export function loginHeaders(login: DatabaseLogin) {
  return { [DATA_USER_HEADER]: login.username, [DATA_PASSWORD_HEADER]: login.password } as {
    'x-basalt-database-user': string
    'x-basalt-database-password': string
  }
}
