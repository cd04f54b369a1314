"""The built-in bank's discoverable tools: our own names and documentation over shared behaviours.

Each entry points at one of the domain's behaviours (`BEHAVIOURS`), so the code that runs is
the same as for the reference's bank; the names the knowledge base uses, the suffixes and
every word of documentation are Larkspur Bank's own. `TOOLS` maps a behaviour key to the
public name, for the documents and the gold plans.
"""

from __future__ import annotations

from types import MappingProxyType

from tau_env.domains.banking_knowledge.data_model import CatalogEntry, ParameterDoc

__all__ = ["TOOLS", "catalog"]

_P = tuple[str, str, bool, str]
"""(name, type, required, description) of one documented parameter."""

_USER: _P = ("user_id", "string", True, "The customer's user id")
_CARD_ACCOUNT: _P = ("credit_card_account_id", "string", True, "The credit card account")
_CARD: _P = ("card_id", "string", True, "The card")
_CHECKING: _P = ("account_id", "string", True, "The checking account")
_ACTIVATION: tuple[_P, ...] = (
    ("card_id", "string", True, "The pending card"),
    ("last_4_digits", "string", True, "Last four digits printed on the card"),
    ("expiration_date", "string", True, "Expiry printed on the card, MM/YY"),
    ("cvv", "string", True, "Three-digit security code"),
    ("pin", "string", True, "The four-digit PIN the customer chose"),
)
"""The details every debit card activation asks for (one tool per issue reason)."""

_ENTRIES: tuple[tuple[str, str, str, str, tuple[_P, ...]], ...] = (
    # (behaviour, side, public name, description, parameters)
    (
        "get_user_accounts", "agent", "list_customer_accounts_4410",
        "List every deposit account and credit card account a customer holds, with product, "
        "status and balance.",
        (_USER,),
    ),
    (
        "get_account_transactions", "agent", "get_account_activity_2087",
        "Show the posted activity of one deposit account, newest first.",
        (("account_id", "string", True, "The deposit account to read"),),
    ),
    (
        "transfer_funds", "agent", "move_money_between_accounts_5162",
        "Move money between two open deposit accounts of the same customer.",
        (
            ("source_account_id", "string", True, "Account the money leaves"),
            ("destination_account_id", "string", True, "Account the money goes to"),
            ("amount", "number", True, "Dollars to move"),
        ),
    ),
    (
        "apply_checking_credit", "agent", "post_checking_credit_3391",
        "Credit money to a personal checking account and record it in the account's activity.",
        (
            _CHECKING,
            ("amount", "number", True, "Dollars to credit"),
            ("credit_type", "string", True, "One of 'fee_refund' or 'rebate_credit'"),
        ),
    ),
    (
        "apply_savings_credit", "agent", "post_savings_credit_3392",
        "Credit money to a savings account and record it in the account's activity.",
        (
            ("account_id", "string", True, "The savings account"),
            ("amount", "number", True, "Dollars to credit"),
            (
                "credit_type", "string", True,
                "One of 'fee_refund', 'interest_correction' or 'goodwill_credit'",
            ),
        ),
    ),
    (
        "open_bank_account", "agent", "open_deposit_account_7025",
        "Open a new deposit account for an existing customer, with a zero balance.",
        (
            _USER,
            ("account_type", "string", True, "'checking' or 'savings'"),
            ("account_class", "string", True, "The exact product name, e.g. 'Finch Checking'"),
        ),
    ),
    (
        "close_bank_account", "agent", "close_deposit_account_7026",
        "Close a deposit account whose balance is zero.",
        (
            ("account_id", "string", True, "The account to close"),
            ("reason", "string", False, "The closure reason code from the closing procedure"),
            (
                "waive_early_closure_fee", "boolean", False,
                "Leave false: Larkspur Bank charges no early closure fee",
            ),
        ),
    ),
    (
        "submit_interest_discrepancy_report", "agent", "report_interest_error_6610",
        "File a report for the deposits team when a savings account was paid interest at the "
        "wrong rate.",
        (
            ("account_id", "string", True, "The savings account"),
            _USER,
            ("expected_apy", "number", True, "The product's APY, in percent"),
            ("actual_apy", "number", True, "The APY the interest was paid at, in percent"),
            ("amount_difference", "number", True, "Interest owed to the customer, in dollars"),
        ),
    ),
    (
        "pay_credit_card_from_checking", "agent", "pay_card_from_checking_1948",
        "Pay a credit card balance from the same customer's personal checking account.",
        (
            _USER,
            ("checking_account_id", "string", True, "The checking account paying"),
            ("credit_card_account_id", "string", True, "The credit card account paid"),
            ("amount", "number", True, "Dollars to pay"),
        ),
    ),
    (
        "order_replacement_credit_card", "agent", "reissue_credit_card_5503",
        "Order a replacement credit card. The current card stops working at once.",
        (
            _CARD_ACCOUNT,
            _USER,
            ("shipping_address", "string", True, "Where to send the card"),
            (
                "reason", "string", True,
                "One of 'lost', 'stolen', 'damaged', 'expired', 'fraud_suspected', 'other'",
            ),
            ("expedited_shipping", "boolean", False, "True only where the product allows it"),
        ),
    ),
    (
        "get_replacement_card_orders", "agent", "list_card_reissue_orders_5504",
        "List the replacement orders of a credit card account.",
        (_CARD_ACCOUNT,),
    ),
    (
        "log_credit_card_closure_reason", "agent", "record_card_closure_reason_8136",
        "Record why a customer wants to close a credit card.",
        (
            _CARD_ACCOUNT,
            _USER,
            ("closure_reason", "string", True, "A reason code from the card closing procedure"),
        ),
    ),
    (
        "get_closure_reasons", "agent", "list_card_closure_reasons_8137",
        "List closure reasons recorded for a credit card account.",
        (_CARD_ACCOUNT,),
    ),
    (
        "close_credit_card_account", "agent", "close_credit_card_8138",
        "Close a credit card account permanently.",
        (_CARD_ACCOUNT, _USER),
    ),
    (
        "apply_credit_card_flag", "agent", "set_card_account_flag_2719",
        "Put a benefit flag on a credit card account, such as an annual fee waiver.",
        (
            _CARD_ACCOUNT,
            _USER,
            (
                "flag_type", "string", True,
                "One of 'annual_fee_waived', 'promotional_apr', 'rewards_bonus', 'other'",
            ),
            ("expiration_date", "string", True, "Last day of the benefit, MM/DD/YYYY"),
            (
                "reason", "string", True,
                "One of 'retention_offer', 'loyalty_benefit', 'promotional', "
                "'error_correction', 'other'",
            ),
        ),
    ),
    (
        "apply_statement_credit", "agent", "post_statement_credit_4062",
        "Post a credit to a credit card statement, for example to reverse a fee.",
        (
            _USER,
            _CARD_ACCOUNT,
            ("amount", "number", True, "Dollars to credit"),
            (
                "reason", "string", True,
                "A code such as 'annual_fee_reversal', 'late_fee_reversal' or "
                "'goodwill_adjustment'",
            ),
        ),
    ),
    (
        "submit_credit_limit_request", "agent", "refer_limit_request_9201",
        "Send a credit limit request to the credit team for review (for amounts an agent may "
        "not grant).",
        (
            _CARD_ACCOUNT,
            _USER,
            (
                "requested_increase_amount", "integer", True,
                "Whole dollars above the current limit",
            ),
        ),
    ),
    (
        "get_credit_limit_requests", "agent", "list_limit_decisions_9202",
        "List credit limit requests and decisions of a credit card account.",
        (_CARD_ACCOUNT,),
    ),
    (
        "get_payment_history", "agent", "review_card_payments_6318",
        "Show the latest payments of a credit card account and how many in a row were on time.",
        (
            _CARD_ACCOUNT,
            ("months", "integer", True, "How many of the latest payments to show"),
        ),
    ),
    (
        "approve_credit_limit_increase", "agent", "approve_limit_increase_9203",
        "Raise a credit card's limit after the eligibility review.",
        (
            _CARD_ACCOUNT,
            _USER,
            ("new_credit_limit", "integer", True, "The new limit in whole dollars"),
        ),
    ),
    (
        "deny_credit_limit_increase", "agent", "decline_limit_increase_9204",
        "Record that a credit limit increase was declined, with the reason.",
        (
            _CARD_ACCOUNT,
            _USER,
            ("denial_reason", "string", True, "A reason code from the limit increase procedure"),
        ),
    ),
    (
        "update_transaction_rewards", "agent", "correct_purchase_rewards_7457",
        "Correct the points recorded on one credit card purchase.",
        (
            ("transaction_id", "string", True, "The card transaction"),
            ("new_rewards_earned", "string", True, "The correct points, written like '240 points'"),
        ),
    ),
    (
        "file_credit_card_dispute", "agent", "open_card_purchase_dispute_3840",
        "Open a dispute on a credit card purchase.",
        (
            ("transaction_id", "string", True, "The disputed card transaction"),
            ("card_action", "string", True, "'keep_active' or 'cancel_and_reissue'"),
            ("card_last_4_digits", "string", True, "Last four digits of the card"),
            ("full_name", "string", True, "The customer's full name"),
            _USER,
            ("phone", "string", True, "Phone number on file"),
            ("email", "string", True, "Email on file"),
            ("address", "string", True, "Address on file"),
            ("contacted_merchant", "boolean", True, "Whether the customer contacted the merchant"),
            ("purchase_date", "string", True, "Date of the purchase, MM/DD/YYYY"),
            ("issue_noticed_date", "string", True, "When the customer noticed, MM/DD/YYYY"),
            ("dispute_reason", "string", True, "A reason code from the dispute procedure"),
            ("resolution_requested", "string", True, "'full_refund' or 'partial_refund'"),
            (
                "eligible_for_provisional_credit", "boolean", True,
                "Whether the dispute qualifies for provisional credit",
            ),
            ("partial_refund_amount", "number", False, "Dollars, for partial refunds only"),
        ),
    ),
    (
        "get_credit_card_disputes", "agent", "list_card_purchase_disputes_3841",
        "List the credit card disputes a customer has filed.",
        (_USER,),
    ),
    (
        "order_debit_card", "agent", "order_debit_card_2264",
        "Order a debit card for a personal checking account; fees are taken from the account.",
        (
            _CHECKING,
            _USER,
            ("delivery_option", "string", True, "'STANDARD', 'EXPEDITED' or 'RUSH'"),
            ("delivery_fee", "number", True, "The product's fee for that delivery option"),
            ("card_design", "string", True, "'CLASSIC', 'PREMIUM' or 'CUSTOM'"),
            ("design_fee", "number", True, "The product's fee for that design"),
            ("shipping_address", "string", True, "The address on file"),
            (
                "excess_replacement_fee", "number", False,
                "The product's replacement fee, when replacing a lost or stolen card",
            ),
        ),
    ),
    (
        "get_debit_cards", "agent", "list_debit_cards_2265",
        "List the debit cards of a checking account with status, issue reason and limits.",
        (_CHECKING,),
    ),
    (
        "activate_new_debit_card", "agent", "activate_first_debit_card_5731",
        "Activate a card issued for a new account or as an account's first card.",
        _ACTIVATION,
    ),
    (
        "activate_replacement_debit_card", "agent", "activate_replacement_debit_card_5732",
        "Activate a card that replaces a lost, stolen or compromised card.",
        _ACTIVATION,
    ),
    (
        "activate_reissued_debit_card", "agent", "activate_reissued_debit_card_5733",
        "Activate a card reissued because the old one expired, was damaged or was upgraded.",
        _ACTIVATION,
    ),
    (
        "close_debit_card", "agent", "cancel_debit_card_1306",
        "Cancel a debit card for good.",
        (
            _CARD,
            (
                "reason", "string", True,
                "One of 'lost', 'stolen', 'fraud_suspected', 'damaged', 'no_longer_needed', "
                "'account_closing'",
            ),
        ),
    ),
    (
        "freeze_debit_card", "agent", "pause_debit_card_1307",
        "Pause an active debit card so it declines every payment until resumed.",
        (_CARD,),
    ),
    (
        "unfreeze_debit_card", "agent", "resume_debit_card_1308",
        "Resume a paused debit card.",
        (_CARD,),
    ),
    (
        "clear_debit_card_alert", "agent", "clear_card_alert_6959",
        "Clear a fraud alert or a velocity block on a debit card.",
        (
            _CARD,
            ("reason", "string", True, "'customer_verified' or 'velocity_clear'"),
        ),
    ),
    (
        "reset_debit_card_pin", "agent", "reset_debit_pin_8802",
        "Set a new PIN on an active debit card when the customer forgot the old one.",
        (
            _CARD,
            ("last_4_digits", "string", True, "Last four digits of the card"),
            ("new_pin", "string", True, "The new four-digit PIN"),
        ),
    ),
    (
        "change_debit_card_pin", "agent", "change_debit_pin_8803",
        "Change the PIN of an active debit card when the customer knows the current one.",
        (
            _CARD,
            ("current_pin", "string", True, "The current PIN"),
            ("new_pin", "string", True, "The new four-digit PIN"),
        ),
    ),
    (
        "raise_debit_card_limit", "agent", "raise_daily_card_limit_6957",
        "Raise a debit card's daily ATM or purchase limit for the next 24 hours.",
        (
            _CARD,
            ("limit_type", "string", True, "'atm' or 'purchase'"),
            ("new_limit", "integer", True, "The temporary limit in whole dollars"),
        ),
    ),
    (
        "set_debit_card_recurring_block", "agent", "block_recurring_charges_6958",
        "Block or allow recurring merchant charges on an active debit card.",
        (
            _CARD,
            ("block_recurring", "boolean", True, "True to block, false to allow"),
        ),
    ),
    (
        "file_debit_card_dispute", "agent", "open_debit_purchase_dispute_3842",
        "Open a dispute on a debit card transaction.",
        (
            ("transaction_id", "string", True, "The disputed account transaction"),
            _CHECKING,
            ("card_id", "string", True, "The debit card used"),
            _USER,
            ("dispute_category", "string", True, "A category code from the dispute procedure"),
            ("transaction_date", "string", True, "MM/DD/YYYY"),
            ("discovery_date", "string", True, "When the customer noticed, MM/DD/YYYY"),
            ("disputed_amount", "number", True, "Dollars in dispute"),
            ("transaction_type", "string", True, "A transaction type code"),
            ("card_in_possession", "boolean", True, "Whether the customer still has the card"),
            ("pin_compromised", "string", True, "'yes_shared', 'yes_observed', 'no' or 'unknown'"),
            ("contacted_merchant", "boolean", True, "Whether the merchant was contacted"),
            ("police_report_filed", "boolean", True, "Whether a police report exists"),
            ("written_statement_provided", "boolean", True, "Whether a statement was given"),
            ("provisional_credit_eligible", "boolean", True, "Per the dispute procedure"),
            ("customer_max_liability_amount", "number", True, "Per the liability table"),
            (
                "card_action", "string", True,
                "'keep_active', 'freeze_pending_investigation' or 'close_and_reissue'",
            ),
        ),
    ),
    (
        "get_debit_card_disputes", "agent", "list_debit_purchase_disputes_3843",
        "List the debit card disputes a customer has filed.",
        (_USER,),
    ),
    (
        "submit_cash_back_dispute", "user", "claim_missing_rewards_0614",
        "Lets the customer claim points that a purchase should have earned.",
        (
            ("user_id", "string", True, "Your user id"),
            ("transaction_id", "string", True, "The purchase"),
        ),
    ),
    (
        "deposit_check", "user", "deposit_check_by_photo_0615",
        "Lets the customer deposit a paper check by photographing it in the Larkspur app.",
        (
            ("account_id", "string", True, "The account to deposit into"),
            ("check_amount", "number", True, "The amount written on the check"),
        ),
    ),
    (
        "get_card_last_4_digits", "user", "show_card_ending_0616",
        "Lets the customer see the last four digits of one of their credit cards in the app.",
        (_CARD_ACCOUNT,),
    ),
    (
        "get_referral_link", "user", "create_referral_link_0617",
        "Lets the customer create a link that refers a friend to a Larkspur credit card.",
        (
            ("user_id", "string", True, "Your user id"),
            ("card_name", "string", True, "The exact card product name"),
        ),
    ),
)  # fmt: skip

TOOLS = MappingProxyType({behaviour: name for behaviour, _, name, _, _ in _ENTRIES})
"""Behaviour key -> the public name Larkspur Bank's documents use."""


def catalog() -> tuple[CatalogEntry, ...]:
    """The catalogue entries, agent tools first (as `bank_data` expects)."""
    entries = [
        CatalogEntry(
            name=name,
            side="agent" if side == "agent" else "user",
            behaviour=behaviour,
            description=description,
            parameters=[
                ParameterDoc(name=p, type=kind, required=required, description=text)
                for p, kind, required, text in parameters
            ],
        )
        for behaviour, side, name, description, parameters in _ENTRIES
    ]
    return tuple(sorted(entries, key=lambda entry: entry.side != "agent"))
