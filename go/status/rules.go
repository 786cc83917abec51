package status

// SetStatus sets the status with no receipt: setting it again changes nothing. A version keeps a late
// change out: one decided on an older version than the ticket's is refused as stale, unless it is the
// very change that made the current version, retried.
func SetStatus(store *Store, change Change) Answer {
	ticket := store.ticket(change.TicketID)
	if ticket.LastChange == change.ChangeID {
		return Answer{Kind: "set", Status: ticket.Status, Version: ticket.Version}
	}
	if change.DecidedOn < ticket.Version {
		return Answer{Kind: "stale", Version: ticket.Version}
	}
	if ticket.Status != change.Status {
		ticket.Status = change.Status
		ticket.Version++
		ticket.LastChange = change.ChangeID
	}
	return Answer{Kind: "set", Status: ticket.Status, Version: ticket.Version}
}

// AddComment adds a comment once per change: a receipt by the change's id, in the same commit.
func AddComment(store *Store, change Change) Answer {
	if seen := store.receipt(change.ChangeID); seen != nil {
		return seen.Answer
	}
	ticket := store.ticket(change.TicketID)
	ticket.Comments = append(ticket.Comments, change.Text)
	answer := Answer{Kind: "commented", Comment: len(ticket.Comments)}
	store.Receipts = append(store.Receipts, Receipt{change.ChangeID, answer})
	return answer
}

// Versioned is exercise 07's solution: a version for the status, a receipt for each comment.
var Versioned = Rules{SetStatus: SetStatus, AddComment: AddComment}

// setAsItArrives sets the status; a status the ticket already has changes nothing.
func setAsItArrives(store *Store, change Change) Answer {
	ticket := store.ticket(change.TicketID)
	if ticket.Status != change.Status {
		ticket.Status = change.Status
		ticket.Version++
	}
	return Answer{Kind: "set", Status: ticket.Status, Version: ticket.Version}
}

// commentAsItArrives adds the comment on every delivery: nothing remembers it was added.
func commentAsItArrives(store *Store, change Change) Answer {
	ticket := store.ticket(change.TicketID)
	ticket.Comments = append(ticket.Comments, change.Text)
	return Answer{Kind: "commented", Comment: len(ticket.Comments)}
}

// AsItArrives applies every change as it arrives: no receipt, no version check.
var AsItArrives = Rules{SetStatus: setAsItArrives, AddComment: commentAsItArrives}

// withReceipt keeps a receipt for every change: a repeat gets the first answer and changes nothing.
func withReceipt(apply func(*Store, Change) Answer) func(*Store, Change) Answer {
	return func(store *Store, change Change) Answer {
		if seen := store.receipt(change.ChangeID); seen != nil {
			return seen.Answer
		}
		answer := apply(store, change)
		store.Receipts = append(store.Receipts, Receipt{change.ChangeID, answer})
		return answer
	}
}

// ReceiptsOnly recognises a change it has seen, and lets a late change it has not seen go in.
var ReceiptsOnly = Rules{SetStatus: withReceipt(setAsItArrives), AddComment: withReceipt(commentAsItArrives)}
