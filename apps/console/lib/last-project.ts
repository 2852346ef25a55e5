// The project a user last looked at, so `/` and the switcher open where they left off.
const KEY = 'basalt.lastProject'

export function rememberProject(id: string) {
  try {
    window.localStorage.setItem(KEY, id)
  } catch {
    // Storage can be unavailable (private mode); the first project is a fine default.
  }
}

export function lastProject(): string | null {
  try {
    return window.localStorage.getItem(KEY)
  } catch {
    return null
  }
}
