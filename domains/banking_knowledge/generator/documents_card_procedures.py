"""Procedure documents of credit cards: choosing, limits, replacement, closing, fees, disputes."""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.catalog import TOOLS
from tau_env.domains.banking_knowledge.generator.procedure_ids import PROCEDURES

__all__ = ["CARD_PROCEDURE_TEXTS"]

T = TOOLS

CARD_PROCEDURE_TEXTS: dict[str, tuple[str, str]] = {
    PROCEDURES.CARD_CHOICE: (
        "Choosing a credit card with a customer",
        """
Recommend exactly one card of the kind the customer asks for (cash back, travel, business or
starter):

1. Keep the cards whose minimum income the customer's annual income meets.
2. Keep the cards whose annual fee the customer accepts.
3. Pick the card with the highest points per dollar in the customer's largest spending
   category; if two are equal, the one with the lower annual fee.

If no card is left, say so and recommend nothing. The customer applies themselves with their
`apply_for_credit_card` tool, giving the card's exact name, their full name and their annual
income. Each card's "card overview" and "rewards" pages have the numbers.
""",
    ),
    PROCEDURES.CARD_LIMIT: (
        "Credit limit increase requests",
        f"""
Each card's "credit limit increases" page gives its rules. The current limit and the opening
date are on the card account (`get_credit_card_accounts_by_user`).

1. Account too young: decline with `{T["deny_credit_limit_increase"]}`, denial_reason
   "insufficient_account_age".
2. Otherwise review the payments with `{T["get_payment_history"]}`, months set to the number
   of on-time payments the card requires. If any of them was not on time, decline with
   denial_reason "insufficient_payment_history".
3. A requested limit above the card's phone maximum is referred to the credit team with
   `{T["submit_credit_limit_request"]}`, requested_increase_amount = the requested limit minus
   the current limit. Nothing is approved on the call.
4. Otherwise approve with `{T["approve_credit_limit_increase"]}` when the requested limit is
   within the card's highest new limit; if it is above, offer that highest limit and approve
   it if the customer accepts.
""",
    ),
    PROCEDURES.CARD_REPLACE: (
        "Replacing a credit card",
        f"""
For a lost, stolen or damaged credit card:

1. Check existing orders with `{T["get_replacement_card_orders"]}`; do not order again if one
   is already ORDERED.
2. Order with `{T["order_replacement_credit_card"]}`: shipping_address is the address on file,
   reason "lost", "stolen" or "damaged", expedited_shipping true only for cards whose
   "replacement, closing and fees" page says replacements ship expedited.

The current card stops working as soon as the order is placed.
""",
    ),
    PROCEDURES.CARD_CLOSE: (
        "Closing a credit card",
        f"""
1. Record the reason with `{T["log_credit_card_closure_reason"]}`: "annual_fee",
   "not_using_card", "found_better_card", "unhappy_with_rewards", "simplifying_finances" or
   "other".
2. If the reason is the annual fee and the card's "replacement, closing and fees" page offers
   a fee waiver to accounts of the customer's age, offer a 12-month annual fee waiver. If the
   customer accepts, set it with `{T["apply_credit_card_flag"]}`: flag_type
   "annual_fee_waived", expiration_date one year from today (MM/DD/YYYY), reason
   "retention_offer", and keep the card open.
3. Otherwise (no offer, or the customer declines it) close the card with
   `{T["close_credit_card_account"]}`.
""",
    ),
    PROCEDURES.CARD_PAY: (
        "Paying a credit card from checking",
        f"""
Customers can pay a card from one of their personal checking accounts with
`{T["pay_credit_card_from_checking"]}` (find the checking account with
`{T["get_user_accounts"]}`). Paying "in full" means the card's current balance. The amount
may exceed neither the checking balance nor the card balance.
""",
    ),
    PROCEDURES.REWARDS: (
        "Missing or wrong points on a card purchase",
        f"""
A purchase earns the card's rate for its category, rounded down to a whole point (the card's
"rewards" page). When a purchase shows fewer points than that:

1. Give the customer `{T["submit_cash_back_dispute"]}` with their user id and the purchase's
   transaction id, and ask them to submit the claim. Claims on eligible purchases are approved
   at once.
2. Once the claim is approved, correct the purchase with `{T["update_transaction_rewards"]}`,
   new_rewards_earned the correct total written like "240 points".

If the points were right, explain the rate; do not file a claim.
""",
    ),
    PROCEDURES.CARD_DISPUTE: (
        "Disputing a credit card purchase",
        f"""
Open disputes with `{T["file_credit_card_dispute"]}`. Unauthorized charges are not disputed
this way: transfer those to the fraud team (reason "fraud_or_security_concern").

- dispute_reason: charged twice "duplicate_charge"; charged more than agreed
  "incorrect_amount"; never delivered "goods_services_not_received"; subscription cancelled
  but still billed "canceled_subscription_still_charging"; promised refund never arrived
  "refund_never_processed".
- resolution_requested: "partial_refund" with partial_refund_amount (the amount overcharged)
  for incorrect amounts; "full_refund" otherwise.
- card_action "keep_active".
- eligible_for_provisional_credit: true when the purchase date is within the last 60 days.
- card_last_4_digits: ask the customer; if they do not have the card at hand, give them
  `{T["get_card_last_4_digits"]}` with the card account id so they can read them in the app.
- full_name, phone, email, address from the customer record; purchase_date from the purchase;
  issue_noticed_date and contacted_merchant as the customer tells you.
""",
    ),
    PROCEDURES.FEE_REVERSAL: (
        "Reversing credit card fees",
        f"""
Fee reversals are posted with `{T["apply_statement_credit"]}` for the amount of the fee.

Annual fee: cards whose first year is free may not be charged an annual fee before the
account's first anniversary. If it was, reverse it with reason "annual_fee_reversal".
Otherwise the fee stands.

Late fee: reverse it with reason "late_fee_reversal" when (1) the card's courtesy rule holds:
review the payments with `{T["get_payment_history"]}` (months = the card's required count plus
one): the latest payment is the late one and every payment before it in that list was on
time; and (2) no late fee reversal was posted on the card in the last 12 months (see
`get_credit_card_transactions_by_user`).
""",
    ),
    PROCEDURES.CARD_HISTORY: (
        "Looking at a credit card account's history",
        f"""
These look-ups help explain earlier decisions; none of them changes anything:

- `{T["get_credit_limit_requests"]}`: limit increase requests and decisions of a card account.
- `{T["get_closure_reasons"]}`: closure reasons recorded for a card account.
- `{T["get_credit_card_disputes"]}`: purchase disputes the customer filed on credit cards.
- `{T["get_debit_card_disputes"]}`: disputes filed on debit cards.
- `{T["get_replacement_card_orders"]}`: replacement cards ordered for a card account.
""",
    ),
}
"""Document id -> (title, body) of the card procedures."""
