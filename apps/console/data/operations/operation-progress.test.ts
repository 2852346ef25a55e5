import { describe, expect, it } from 'vitest'
import { applyOperationEvent, initialProgress } from './operation-progress'

describe('operation progress from events', () => {
  const start = initialProgress({ status: 'pending', progress: 0, steps: [], error: null })

  it('starts from the operation as loaded', () => {
    const loaded = initialProgress({
      status: 'running',
      progress: 30,
      steps: [
        { name: 'allocate', status: 'succeeded' },
        { name: 'terraform_apply', status: 'running' },
      ],
      error: null,
    })
    expect(loaded).toMatchObject({ status: 'running', progress: 30, currentStep: 'terraform_apply' })
  })

  it('follows steps, never moves backwards and ends at 100 on success', () => {
    let s = applyOperationEvent(start, { kind: 'step', step: 'terraform_apply', progress: 40, message: 'apply started' })
    expect(s).toMatchObject({ status: 'running', progress: 40, currentStep: 'terraform_apply' })
    s = applyOperationEvent(s, { kind: 'log', step: 'terraform_apply', progress: 20, message: 'null_resource.vm: Creating...' })
    expect(s.progress).toBe(40)
    expect(s.log.map((l) => l.message)).toEqual(['apply started', 'null_resource.vm: Creating...'])
    s = applyOperationEvent(s, { kind: 'succeeded', message: 'PING answered' })
    expect(s).toMatchObject({ status: 'succeeded', progress: 100 })
  })

  it('records the failure message', () => {
    const s = applyOperationEvent(start, { kind: 'failed', step: 'ansible', message: 'ansible-playbook exited with 2' })
    expect(s).toMatchObject({ status: 'failed', currentStep: 'ansible', error: 'ansible-playbook exited with 2' })
  })

  it('clamps progress to 100 and ignores non-numbers', () => {
    const s = applyOperationEvent(start, { kind: 'progress', progress: 250 })
    expect(s.progress).toBe(100)
    expect(applyOperationEvent(start, { kind: 'progress', progress: Number.NaN }).progress).toBe(0)
  })
})
