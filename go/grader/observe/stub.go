package observe

import "workbook/core"

// Stub keeps what a stub said when the learner's code runs under the scheduler, which would otherwise turn
// the stub's panic into a worker's "panic: …": so a stub is reported as a stub, as TypeScript's runs say it.
//
//	var stub observe.Stub
//	handle := func(conn database.Connection, event core.Webhook) (core.Outcome, error) {
//		return observe.Call(&stub, func() (core.Outcome, error) { return learner.Handle(conn, event) })
//	}
//	… play handle …
//	stub.Said()   // the stub's message, or nil
type Stub struct{ stopped *core.NotWrittenYet }

// Call runs call. A stub's panic becomes call's error (and the first one is kept); any other panic goes on.
func Call[T any](s *Stub, call func() (T, error)) (value T, err error) {
	defer func() {
		if p := recover(); p != nil {
			stub, ok := p.(core.NotWrittenYet)
			if !ok {
				panic(p)
			}
			if s.stopped == nil {
				s.stopped = &stub
			}
			err = stub
		}
	}()
	return call()
}

// Stopped is the first stub the code stopped at, or nil.
func (s *Stub) Stopped() *core.NotWrittenYet { return s.stopped }

// Said is the first stub's message, or nil (null on the channel).
func (s *Stub) Said() any {
	if s.stopped == nil {
		return nil
	}
	return s.stopped.Error()
}
