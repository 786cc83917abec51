package status

// The two given ways of applying changes, which never check a version: what the schedules' as-it-arrives
// and receipts-only columns expect. Exercise 07's own rules are the learner's (go/exercises/07-close-and-reopen).

// setAsItArrives sets the status; a status the ticket already has changes nothing.
func setAsItArrives(store *Store, change Change) Answer {
	ticket := store.Ticket(change.TicketID)
	if ticket.Status != change.Status {
		ticket.Status = change.Status
		ticket.Version++
	}
	return Answer{Kind: "set", Status: ticket.Status, Version: ticket.Version}
}

// commentAsItArrives adds the comment on every delivery: nothing remembers it was added.
func commentAsItArrives(store *Store, change Change) Answer {
	ticket := store.Ticket(change.TicketID)
	ticket.Comments = append(ticket.Comments, change.Text)
	return Answer{Kind: "commented", Comment: len(ticket.Comments)}
}

// AsItArrives applies every change as it arrives: no receipt, no version check.
var AsItArrives = Rules{SetStatus: setAsItArrives, AddComment: commentAsItArrives}

// withReceipt keeps a receipt for every change: a repeat gets the first answer and changes nothing.
func withReceipt(apply func(*Store, Change) Answer) func(*Store, Change) Answer {
	return func(store *Store, change Change) Answer {
		if seen := store.Receipt(change.ChangeID); seen != nil {
			return seen.Answer
		}
		answer := apply(store, change)
		store.Receipts = append(store.Receipts, Receipt{change.ChangeID, answer})
		return answer
	}
}

// ReceiptsOnly recognises a change it has seen, and lets a late change it has not seen go in.
var ReceiptsOnly = Rules{SetStatus: withReceipt(setAsItArrives), AddComment: withReceipt(commentAsItArrives)}
