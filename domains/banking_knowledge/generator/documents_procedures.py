"""Procedure documents: how an agent does each job, naming the discoverable tools to use.

Product-independent rules live here (the order of steps, reason codes, how an amount is
worked out); the numbers come from each product's own documents. Ids are module constants
so task kinds can name the documents they need.
"""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.catalog import TOOLS
from tau_env.domains.banking_knowledge.generator.library import Library
from tau_env.domains.banking_knowledge.generator.products import BANK_NAME

__all__ = ["PROCEDURES", "write_procedure_documents"]

T = TOOLS


class PROCEDURES:
    """Ids of the procedure documents."""

    VERIFY = "doc_procedure_identity_verification"
    ACCOUNTS = "doc_procedure_finding_accounts"
    ATM_REFUND = "doc_procedure_atm_fee_refunds"
    DEBIT_ORDER = "doc_procedure_ordering_debit_cards"
    DEBIT_LOST = "doc_procedure_lost_or_stolen_debit_cards"
    DEBIT_ACTIVATE = "doc_procedure_activating_debit_cards"
    DEBIT_PAUSE = "doc_procedure_pausing_debit_cards"
    PIN = "doc_procedure_debit_card_pins"
    DEBIT_LIMIT = "doc_procedure_temporary_debit_limits"
    CLOSE_DEPOSIT = "doc_procedure_closing_deposit_accounts"
    OPEN_DEPOSIT = "doc_procedure_opening_deposit_accounts"
    MOBILE_DEPOSIT = "doc_procedure_photo_check_deposits"
    MOVE_MONEY = "doc_procedure_moving_money"
    SAVINGS_FEES = "doc_procedure_savings_withdrawal_fees"
    INTEREST = "doc_procedure_interest_corrections"
    REFERRAL = "doc_procedure_referrals"
    CARD_CHOICE = "doc_procedure_choosing_a_credit_card"
    CARD_LIMIT = "doc_procedure_credit_limit_increases"
    CARD_REPLACE = "doc_procedure_replacing_credit_cards"
    CARD_CLOSE = "doc_procedure_closing_credit_cards"
    CARD_PAY = "doc_procedure_paying_cards_from_checking"
    REWARDS = "doc_procedure_missing_rewards"
    CARD_DISPUTE = "doc_procedure_credit_card_disputes"
    FEE_REVERSAL = "doc_procedure_card_fee_reversals"
    SPECIALISTS = "doc_procedure_transfers_to_specialists"
    CONTACT = "doc_procedure_updating_contact_details"


_TEXTS: dict[str, tuple[str, str]] = {
    PROCEDURES.VERIFY: (
        "Verifying a caller's identity",
        """
Verify every caller before you look at or change anything of theirs, and before anything
else in the conversation.

1. Ask for their full name and find their record (by name, email or user id).
2. Ask them to confirm two of these four details: date of birth, email address, phone
   number, home address. Both must match the record exactly. The name or the user id alone
   never verifies anyone.
3. Log the verification with `log_verification`, copying the name, user id, address, email,
   phone number and date of birth from the record, and the time given by `get_current_time`.

Verify once per conversation. A caller who cannot confirm two details is not verified: do
not discuss, look up or change any account or card for them, and do not log a verification.
""",
    ),
    PROCEDURES.ACCOUNTS: (
        "Finding a customer's accounts",
        f"""
Account ids are never guessed. After verifying the customer, unlock and call
`{T["get_user_accounts"]}` with their user id: it lists their deposit accounts (class
checking or saving, product name in the level field, balance in current_holdings) and their
credit card accounts. Use it whenever a task involves one of their deposit accounts.

Other look-ups: `{T["get_account_transactions"]}` shows one deposit account's activity, newest
first; `{T["get_debit_cards"]}` lists the debit cards of a checking account. Credit card
accounts and card purchases are also visible with the always-available tools
`get_credit_card_accounts_by_user` and `get_credit_card_transactions_by_user`.
""",
    ),
    PROCEDURES.ATM_REFUND: (
        "Refunding ATM fees on checking accounts",
        f"""
When a customer uses another bank's ATM, {BANK_NAME} charges its own fee, which appears in the
checking activity as "OUT-OF-NETWORK ATM FEE". Some checking products refund a number of
these fees per statement month on request (see the product's fee schedule). The statement
month is the current calendar month.

1. Find the checking account with `{T["get_user_accounts"]}`.
2. Read its activity with `{T["get_account_transactions"]}` and count the OUT-OF-NETWORK ATM
   FEE lines dated in the current month. Fees from earlier months are not refunded.
3. Refund at most the product's monthly number of fees: the amount is that many fees (or all
   of them, if fewer) times the product's fee. Post it as one credit with
   `{T["apply_checking_credit"]}`, credit_type "fee_refund".

Products without ATM fee refunds do not refund these fees; explain this and credit nothing.
Surcharges of the other bank's ATM are never refunded.
""",
    ),
    PROCEDURES.DEBIT_ORDER: (
        "Ordering a debit card",
        f"""
Debit cards are issued for personal checking accounts; each account may have one active
card.

1. Find the checking account with `{T["get_user_accounts"]}`.
2. List its cards with `{T["get_debit_cards"]}`. If one is ACTIVE, do not order another.
3. Ask which delivery option (STANDARD, EXPEDITED, RUSH) and design (CLASSIC, PREMIUM,
   CUSTOM) the customer wants. The fees are on the product's "debit card fees and limits"
   page.
4. Order with `{T["order_debit_card"]}`: delivery_fee and design_fee are the product's fees
   for the chosen options (0 when free), shipping_address is the address on file. Leave
   excess_replacement_fee out. The fees are taken from the account.
""",
    ),
    PROCEDURES.DEBIT_LOST: (
        "Lost or stolen debit cards",
        f"""
If the customer expects to find the card (it is somewhere at home, in a car), offer to
pause it instead (see "Pausing and resuming a debit card"). When the card is lost for good
or stolen:

1. Find the checking account with `{T["get_user_accounts"]}` and the card with
   `{T["get_debit_cards"]}`.
2. Cancel it with `{T["close_debit_card"]}`, reason "lost" or "stolen" as the customer
   describes it.
3. Order the replacement with `{T["order_debit_card"]}` with the delivery option and design
   the customer chooses and their fees, and excess_replacement_fee set to the product's
   replacement fee (leave it out when replacement is free).
""",
    ),
    PROCEDURES.DEBIT_ACTIVATE: (
        "Activating a debit card",
        f"""
A new debit card arrives with status PENDING. Find it with `{T["get_debit_cards"]}` (after
`{T["get_user_accounts"]}`) and look at its issue_reason; three tools activate cards and
each accepts only its own reasons:

| issue_reason | Tool |
|---|---|
| new_account, first_card | `{T["activate_new_debit_card"]}` |
| lost, stolen, fraud | `{T["activate_replacement_debit_card"]}` |
| expired, damaged, upgrade, bank_reissue | `{T["activate_reissued_debit_card"]}` |

The customer reads the last four digits, the expiry date and the CVV from the card and
chooses a PIN (see "Debit card PINs" for the rules).
""",
    ),
    PROCEDURES.DEBIT_PAUSE: (
        "Pausing and resuming a debit card",
        f"""
A customer who misplaced a card but expects to find it can have it paused: every payment
and withdrawal is declined until it is resumed, and nothing else changes.

- Pause an ACTIVE card with `{T["freeze_debit_card"]}`.
- When the customer has the card again, resume it with `{T["unfreeze_debit_card"]}`.

Find the card with `{T["get_user_accounts"]}` and `{T["get_debit_cards"]}` first. A card
that is lost for good or stolen is cancelled instead (see "Lost or stolen debit cards").
""",
    ),
    PROCEDURES.PIN: (
        "Debit card PINs",
        f"""
A PIN has exactly four digits. It may not be a run of consecutive digits (1234, 6543...) or
one digit repeated (7777).

- Forgotten PIN: `{T["reset_debit_card_pin"]}` with the card id, the card's last four digits
  (the customer reads them from the card) and the new PIN.
- Known PIN: `{T["change_debit_card_pin"]}` with the current and the new PIN.

Only ACTIVE cards can get a new PIN. Find the card with `{T["get_user_accounts"]}` and
`{T["get_debit_cards"]}`.
""",
    ),
    PROCEDURES.DEBIT_LIMIT: (
        "Temporary debit card limit increases",
        f"""
Each checking product has standard daily ATM and purchase limits and says how far they may be
raised for 24 hours (its "debit card fees and limits" page).

1. Find the account and the card (`{T["get_user_accounts"]}`, `{T["get_debit_cards"]}`). The
   account must be at least 60 days old.
2. The highest temporary limit is the product's percentage of the card's standard limit,
   rounded down to whole dollars. If the customer asks for more, offer that highest amount.
3. Raise it with `{T["raise_debit_card_limit"]}`: limit_type "atm" or "purchase", new_limit
   the agreed amount.

Products without temporary increases cannot raise limits.
""",
    ),
    PROCEDURES.CLOSE_DEPOSIT: (
        "Closing a checking or savings account",
        f"""
An account can only be closed with a zero balance.

1. Find the accounts with `{T["get_user_accounts"]}`.
2. If the account is a checking account, list its cards with `{T["get_debit_cards"]}` and
   cancel every ACTIVE or PENDING card with `{T["close_debit_card"]}`, reason
   "account_closing".
3. Move the whole balance to the other open account the customer names with
   `{T["transfer_funds"]}`.
4. Close it with `{T["close_bank_account"]}` and one of these reason codes: "moving_banks"
   (leaving {BANK_NAME}), "consolidating_accounts" (keeping their money in another Larkspur
   account), "fees_too_high", "no_longer_needed". Leave waive_early_closure_fee unset:
   {BANK_NAME} charges no early closure fee.
""",
    ),
    PROCEDURES.OPEN_DEPOSIT: (
        "Opening a checking or savings account",
        f"""
Existing customers can open deposit accounts on the phone with
`{T["open_bank_account"]}`: account_type "checking" or "savings", account_class the product's
exact name (for example "Finch Checking"). New accounts start empty.

Eligibility (check it first with `{T["get_user_accounts"]}`):
- Savings products need an open personal checking account with {BANK_NAME} that is at least
  14 days old.
- Premier checking products need the combined balance of the customer's open deposit
  accounts to reach the product's opening requirement.
- Everyday checking products have no requirement.

If the customer is not eligible, explain why and open nothing.
""",
    ),
    PROCEDURES.MOBILE_DEPOSIT: (
        "Photo check deposits",
        f"""
Customers deposit paper checks themselves by photographing them in the app.

1. Find the account with `{T["get_user_accounts"]}`.
2. Check the amount against the product's per-check limit ("Depositing checks into ..."). A
   larger check must be taken to a branch or a Larkspur ATM: do not give the tool.
3. Give the customer `{T["deposit_check"]}` with the account_id and check_amount, and ask
   them to run it.
""",
    ),
    PROCEDURES.MOVE_MONEY: (
        "Moving money between a customer's accounts",
        f"""
Use `{T["transfer_funds"]}` to move money between two open deposit accounts of the verified
customer (find them with `{T["get_user_accounts"]}`). The amount may not exceed the balance of
the account it leaves. Money never moves to another customer's account this way.
""",
    ),
    PROCEDURES.SAVINGS_FEES: (
        "Savings withdrawal fees",
        f"""
Each savings product allows a number of withdrawals per calendar month; each further
withdrawal is charged the product's excess withdrawal fee.

1. Read the savings activity with `{T["get_account_transactions"]}` (after
   `{T["get_user_accounts"]}`).
2. Count the month's withdrawals (negative lines other than fees) and the EXCESS WITHDRAWAL
   FEE lines.
3. Fees are due only for withdrawals beyond the allowance. Refund any fee charged while the
   count was within the allowance with `{T["apply_savings_credit"]}`, credit_type
   "fee_refund", one credit for the total. Fees that were due are not refunded.
""",
    ),
    PROCEDURES.INTEREST: (
        "Interest corrections on savings accounts",
        f"""
When a customer thinks their savings interest is wrong, read the interest line in the
activity (`{T["get_account_transactions"]}`): it shows the month-end balance and the rate
applied. Compare the rate with the product's APY.

If the rate applied differs from the product's APY:
1. The interest owed is the correct interest (balance times the product's APY, divided by
   12, rounded to the cent) minus the interest paid.
2. File `{T["submit_interest_discrepancy_report"]}` with expected_apy (the product's APY),
   actual_apy (the rate applied) and amount_difference (the interest owed).
3. Credit the interest owed with `{T["apply_savings_credit"]}`, credit_type
   "interest_correction".

If the rate was right, explain how interest is calculated; change nothing.
""",
    ),
    PROCEDURES.REFERRAL: (
        "Referring friends",
        f"""
Deposit products: a customer refers a friend to a checking or savings product in the
referral program themselves, with their `submit_referral` tool, giving their own user id and
the product's exact name as account_type. Products outside the program cannot be referred.

Credit cards: give the customer `{T["get_referral_link"]}` with their user id and the card's
exact name as card_name; they run it to get a link to share.
""",
    ),
    PROCEDURES.CARD_CHOICE: (
        "Choosing a credit card with a customer",
        f"""
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
    PROCEDURES.SPECIALISTS: (
        "When to transfer a call to a specialist",
        """
Some requests are handled only by specialist teams. Tell the caller, then call
`transfer_to_human_agents` with a short summary and the reason code:

| Situation | Reason code |
|---|---|
| The caller reports that the account holder has died | deceased_account_holder |
| Court orders, garnishments, subpoenas | legal_or_regulatory_matter |
| Someone other than the account holder asks about the account | third_party_inquiry |
| Charges the customer did not make, suspected identity theft | fraud_or_security_concern |
| Mortgages and auto loans | specialized_department_required |

Callers who are not the account holder are not verified.
""",
    ),
    PROCEDURES.CONTACT: (
        "Updating contact details",
        """
After verifying the customer, change their email address with `change_user_email`. Read the
new address back to them before saving it.
""",
    ),
}


def write_procedure_documents(library: Library) -> None:
    """Every procedure document."""
    for doc_id, (title, body) in _TEXTS.items():
        library.add(doc_id, title, f"# {title}\n{body}")
