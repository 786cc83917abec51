// Package client is the Go side of exercise 04: a support form that keeps one idempotency key per
// request the user means to send. The key and the body of an attempt whose outcome is unknown are kept in
// the tab's storage, so pressing Send again, even after a reload, sends the same request again. It plays
// the schedules/client journeys, with a fake ticket endpoint that keeps the Idempotency-Key contract.
package client

import (
	"errors"
	"fmt"
)

// KeyStore is the part of a tab's sessionStorage the form uses. Each call can fail, as a full or refused
// storage does.
type KeyStore interface {
	GetItem(name string) (value string, ok bool, err error)
	SetItem(name, value string) error
	RemoveItem(name string) error
}

// ErrStorageFailed is what a full or refused storage answers.
var ErrStorageFailed = errors.New("the storage is full or refused")

// MemoryStorage is a tab's sessionStorage in memory: it survives a reload of the page, and it can be made
// to fail. Its zero value is empty and working.
type MemoryStorage struct {
	items   map[string]string
	failing map[Method]bool
}

// Method names one of the storage's calls, so a test can make only that one fail.
type Method string

// The calls a MemoryStorage can be made to fail.
const (
	GetItem    Method = "getItem"
	SetItem    Method = "setItem"
	RemoveItem Method = "removeItem"
)

// Fail makes the named calls fail from now on, the way a full or refused storage does; with none named,
// every call fails.
func (m *MemoryStorage) Fail(methods ...Method) {
	if len(methods) == 0 {
		methods = []Method{GetItem, SetItem, RemoveItem}
	}
	if m.failing == nil {
		m.failing = map[Method]bool{}
	}
	for _, method := range methods {
		m.failing[method] = true
	}
}

// Heal makes every call work again.
func (m *MemoryStorage) Heal() { m.failing = nil }

// Contents is a copy of what is stored, for tests to look at; it never fails.
func (m *MemoryStorage) Contents() map[string]string {
	contents := map[string]string{}
	for name, value := range m.items {
		contents[name] = value
	}
	return contents
}

// Put writes behind the form's back, as an older version of the app could. It never fails.
func (m *MemoryStorage) Put(name, value string) {
	if m.items == nil {
		m.items = map[string]string{}
	}
	m.items[name] = value
}

// GetItem reads an item.
func (m *MemoryStorage) GetItem(name string) (string, bool, error) {
	if m.failing[GetItem] {
		return "", false, fmt.Errorf("getItem: %w", ErrStorageFailed)
	}
	value, ok := m.items[name]
	return value, ok, nil
}

// SetItem writes an item.
func (m *MemoryStorage) SetItem(name, value string) error {
	if m.failing[SetItem] {
		return fmt.Errorf("setItem: %w", ErrStorageFailed)
	}
	m.Put(name, value)
	return nil
}

// RemoveItem deletes an item.
func (m *MemoryStorage) RemoveItem(name string) error {
	if m.failing[RemoveItem] {
		return fmt.Errorf("removeItem: %w", ErrStorageFailed)
	}
	delete(m.items, name)
	return nil
}
