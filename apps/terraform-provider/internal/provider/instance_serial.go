package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"basalt/terraform-provider-basalt/internal/client"
)

// One operation at a time per instance. Within one apply Terraform changes an instance and its
// users in parallel (a user depends only on the instance's unchanging id), and the API starts
// every requested operation at once; two operations on one instance at the same time can break
// each other on the worker. So every change that starts an operation on an existing instance
// takes the instance's lock for the start and the wait, and first waits out an operation
// started elsewhere (another apply, the console) that is still running.

// instanceLocks holds one mutex per instance ID for the life of the provider process.
type instanceLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (l *instanceLocks) lock(id string) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*sync.Mutex{}
	}
	m, ok := l.locks[id]
	if !ok {
		m = &sync.Mutex{}
		l.locks[id] = m
	}
	l.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// serialise takes the instance's lock and waits until the operation the instance is busy with
// (if any) has finished, however it ended: the change that follows decides for itself. The
// returned function releases the lock; call it once the change's own operation has finished.
func (d *providerData) serialise(ctx context.Context, instanceID string) (func(), diagnostics) {
	unlock := d.locks.lock(instanceID)
	var diags diagnostics
	inst, err := d.client.GetInstance(ctx, d.project, instanceID)
	if err != nil || inst.CurrentOperationID == nil {
		return unlock, diags // a missing instance is for the change itself to report
	}
	op, err := d.client.GetOperation(ctx, *inst.CurrentOperationID)
	if err != nil || op.Finished() {
		return unlock, diags
	}
	if _, err := d.client.WaitForOperation(ctx, op.ID, client.WaitOptions{}); err != nil {
		if _, failed := err.(*client.OperationFailed); !failed {
			diags.AddError("Waiting for the instance's running operation failed", err.Error())
		}
	}
	return unlock, diags
}

// beginChange starts a change to an existing instance: ctx bounded by the resource's timeout
// (timeoutOf, e.g. plan.Timeouts.Update, with byDefault), and the instance's operation lock
// (serialise). done releases both; call it when the change's operations have finished.
func (d *providerData) beginChange(ctx context.Context, timeoutOf func(context.Context, time.Duration) (time.Duration, diag.Diagnostics), byDefault time.Duration, instanceID string) (context.Context, func(), diagnostics) {
	timeout, diags := timeoutOf(ctx, byDefault)
	if diags.HasError() {
		return ctx, func() {}, diags
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	unlock, more := d.serialise(ctx, instanceID)
	diags.Append(more...)
	return ctx, func() { unlock(); cancel() }, diags
}
