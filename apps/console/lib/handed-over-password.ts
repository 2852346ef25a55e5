// A new instance's default password, handed from the dialog that created it to the instance's
// page it navigates to: the API returns it once, in the create's answer. Memory only: a reload
// or another tab never sees it.
const passwords = new Map<string, string>()

export function handOverPassword(instanceId: string, password: string): void {
  passwords.set(instanceId, password)
}

export function handedOverPassword(instanceId: string): string | undefined {
  return passwords.get(instanceId)
}

export function forgetPassword(instanceId: string): void {
  passwords.delete(instanceId)
}
