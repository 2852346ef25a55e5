import { describe, expect, it } from 'vitest'
import { applyOperationEvent, applyOperationSnapshot, initialProgress } from './operation-progress'
import type { OperationEvent } from './operation-types'

let seq = 0
const ev = (kind: string, step: string | null, message = `${kind} ${step ?? ''}`): OperationEvent => ({
  id: ++seq,
  kind,
  step,
  message,
  data: null,
  created_at: '2026-11-22T01:00:00Z',
})

const created = {
  status: 'pending' as const,
  progress: 0,
  steps: [],
  error: null,
}

describe('operation progress from events', () => {
  it('starts from the operation as loaded', () => {
    const loaded = initialProgress({
      status: 'running',
      progress: 25,
      steps: [
        { name: 'allocate_addresses', status: 'succeeded' },
        { name: 'terraform_apply', status: 'running' },
        { name: 'ansible_deploy', status: 'pending' },
        { name: 'ping', status: 'pending' },
      ],
      error: null,
    })
    expect(loaded).toMatchObject({ status: 'running', progress: 25, currentStep: 'terraform_apply' })
  })

  it('follows the worker through its steps and ends at 100', () => {
    let s = initialProgress({
      ...created,
      steps: ['allocate', 'terraform_apply', 'ansible', 'ping'].map((name) => ({ name, status: 'pending' as const })),
    })
    s = applyOperationEvent(s, ev('step_started', 'allocate'))
    expect(s).toMatchObject({ status: 'running', currentStep: 'allocate', progress: 0 })
    s = applyOperationEvent(s, ev('step_succeeded', 'allocate'))
    expect(s.progress).toBe(25)
    s = applyOperationEvent(s, ev('step_started', 'terraform_apply'))
    s = applyOperationEvent(s, ev('terraform', 'terraform_apply', 'null_resource.vm: Creating...'))
    expect(s.currentStep).toBe('terraform_apply')
    expect(s.steps.map((x) => x.status)).toEqual(['succeeded', 'running', 'pending', 'pending'])
    for (const step of ['terraform_apply', 'ansible', 'ping']) {
      s = applyOperationEvent(s, ev('step_started', step))
      s = applyOperationEvent(s, ev('step_succeeded', step))
    }
    expect(s.progress).toBe(99) // not done until the operation says so
    s = applyOperationEvent(s, ev('operation_succeeded', null))
    expect(s).toMatchObject({ status: 'succeeded', progress: 100 })
    expect(s.log).toHaveLength(11)
  })

  it('counts progress only over a step list it knows from the operation', () => {
    let s = applyOperationEvent(initialProgress(created), ev('step_started', 'allocate'))
    s = applyOperationEvent(s, ev('step_succeeded', 'allocate'))
    expect(s.progress).toBe(0) // one step seen is not one step of one
    s = applyOperationSnapshot(s, {
      status: 'running',
      progress: 25,
      steps: ['allocate', 'terraform_apply', 'ansible', 'ping'].map((name, i) => ({ name, status: i === 0 ? ('succeeded' as const) : ('pending' as const) })),
      error: null,
    })
    s = applyOperationEvent(s, ev('step_succeeded', 'terraform_apply'))
    expect(s.progress).toBe(50)
  })

  it('records the failing step and message', () => {
    let s = applyOperationEvent(initialProgress(created), ev('step_started', 'ansible'))
    s = applyOperationEvent(s, ev('step_failed', 'ansible', 'ansible-playbook exited with 2'))
    s = applyOperationEvent(s, ev('operation_failed', 'ansible', 'ansible-playbook exited with 2'))
    expect(s).toMatchObject({ status: 'failed', currentStep: 'ansible', error: 'ansible-playbook exited with 2' })
    expect(s.steps).toEqual([expect.objectContaining({ name: 'ansible', status: 'failed' })])
  })

  it('ignores events replayed after a reconnect', () => {
    const started = ev('step_started', 'allocate')
    const once = applyOperationEvent(initialProgress(created), started)
    expect(applyOperationEvent(once, started)).toBe(once)
  })

  it('takes a reloaded operation without going backwards or reopening a finished one', () => {
    let s = applyOperationSnapshot(initialProgress(created), { status: 'running', progress: 50, steps: [], error: null })
    expect(s.progress).toBe(50)
    s = applyOperationSnapshot(s, { status: 'running', progress: 25, steps: [], error: null })
    expect(s.progress).toBe(50)
    s = applyOperationEvent(s, ev('operation_succeeded', null))
    expect(applyOperationSnapshot(s, { status: 'running', progress: 60, steps: [], error: null }).status).toBe('succeeded')
  })
})
