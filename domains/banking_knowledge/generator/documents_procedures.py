"""Procedure documents: how an agent does each job, naming the discoverable tools to use.

Product-independent rules live here (the order of steps, reason codes, how an amount is
worked out); the numbers come from each product's own documents. Ids are module constants
so task kinds can name the documents they need.
"""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.catalog import TOOLS
from tau_env.domains.banking_knowledge.generator.documents_card_procedures import (
    CARD_PROCEDURE_TEXTS,
)
from tau_env.domains.banking_knowledge.generator.library import Library
from tau_env.domains.banking_knowledge.generator.procedure_ids import PROCEDURES
from tau_env.domains.banking_knowledge.generator.products import BANK_NAME

__all__ = ["write_procedure_documents"]

T = TOOLS


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

1. Find the account and the card (`{T["get_user_accounts"]}`, `{T["get_debit_cards"]}`). Accounts
   opened fewer than 60 days ago get no increase.
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
    PROCEDURES.DEBIT_ALERTS: (
        "Fraud alerts and velocity blocks on debit cards",
        f"""
A debit card that is being declined may carry a block; the card record shown by
`{T["get_debit_cards"]}` says which (find the account with `{T["get_user_accounts"]}` first).

- velocity_blocked true: many purchases in a short time stopped the card. When the customer
  confirms those purchases were theirs, clear it with `{T["clear_debit_card_alert"]}`, reason
  "velocity_clear".
- fraud_alert_active true: read alert_source. An alert raised by the bank's fraud systems
  (alert_source "bank_initiated") can only be cleared by the fraud team: transfer the call
  with reason "fraud_or_security_concern". Any other alert is cleared with reason
  "customer_verified" once the customer confirms the flagged purchases were theirs.

A customer who does not recognise the purchases is transferred to the fraud team instead.
""",
    ),
    PROCEDURES.RECURRING: (
        "Recurring charges on debit cards",
        f"""
`{T["set_debit_card_recurring_block"]}` stops every recurring (subscription) charge on an
ACTIVE debit card from the next billing date; one-time purchases keep working. Set
block_recurring true to block and false to allow them again. Find the card with
`{T["get_user_accounts"]}` and `{T["get_debit_cards"]}`.

Blocking stops future charges only. Money already charged is claimed back with a dispute
(see "Disputing a debit card transaction").
""",
    ),
    PROCEDURES.DEBIT_DISPUTE: (
        "Disputing a debit card transaction",
        f"""
Billing errors on a checking account's debit card are disputed with
`{T["file_debit_card_dispute"]}`. Transactions the customer did not make are not disputed on
the phone: transfer those to the fraud team (reason "fraud_or_security_concern").

Find the account (`{T["get_user_accounts"]}`), the transaction in its activity
(`{T["get_account_transactions"]}`) and the card (`{T["get_debit_cards"]}`), then fill in
these arguments:

- dispute_category: charged twice "duplicate_charge"; charged more than agreed
  "incorrect_amount"; not delivered "goods_services_not_received"; cancelled subscription
  still billed "recurring_charge_after_cancellation"; ATM gave less cash than it debited
  "atm_cash_discrepancy".
- transaction_type, from the activity description: "POS PURCHASE" pin_purchase, "ONLINE
  PURCHASE" online_purchase, "RECURRING PAYMENT" recurring_payment, "ATM WITHDRAWAL"
  atm_withdrawal.
- transaction_id: the disputed line; for a duplicate charge, the second of the two identical
  lines as the activity lists them.
- disputed_amount: the whole transaction, except for incorrect amounts and ATM cash
  discrepancies, where it is the difference only.
- transaction_date: the transaction's date; discovery_date: when the customer noticed.
- card_in_possession and contacted_merchant: as the customer says.
- pin_compromised: "no" unless the customer says someone else knows the PIN.
- police_report_filed and written_statement_provided: false (not needed for billing errors).
- provisional_credit_eligible: true when the transaction is dated within the last 60 days.
- customer_max_liability_amount: 0, customers are never liable for billing errors.
- card_action: "keep_active".
""",
    ),
}


def write_procedure_documents(library: Library) -> None:
    """Every procedure document."""
    for doc_id, (title, body) in {**_TEXTS, **CARD_PROCEDURE_TEXTS}.items():
        library.add(doc_id, title, f"# {title}\n{body}")
