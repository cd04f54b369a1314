"""Dispute behaviours: credit and debit card disputes, their histories, ATM deposit images."""

from __future__ import annotations

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.atm_images import SCANNED_DEPOSITS
from tau_env.domains.banking_knowledge.discoverable.base import behaviour, name_of
from tau_env.domains.banking_knowledge.discoverable.checks import found, given, inserted, one_of
from tau_env.domains.banking_knowledge.discoverable.histories import HISTORIES
from tau_env.domains.banking_knowledge.discoverable.texts import title
from tau_env.domains.banking_knowledge.ids import dispute_id

__all__ = ["BEHAVIOURS"]


@behaviour("file_credit_card_dispute", "write")
def file_credit_card_dispute(
    db: BankingDB,
    transaction_id: str,
    card_action: str,
    card_last_4_digits: str,
    full_name: str,
    user_id: str,
    phone: str,
    email: str,
    address: str,
    contacted_merchant: bool,
    purchase_date: str,
    issue_noticed_date: str,
    dispute_reason: str,
    resolution_requested: str,
    eligible_for_provisional_credit: bool,
    partial_refund_amount: float | None = None,
) -> str:
    """Open a dispute on a credit card transaction (the transaction is not looked up)."""
    given(all((transaction_id, user_id)), "Error: Missing required parameters.")
    actions = ["keep_active", "cancel_and_reissue"]
    one_of(card_action, "card_action", actions)
    reasons = [
        "unauthorized_fraudulent_charge",
        "duplicate_charge",
        "incorrect_amount",
        "goods_services_not_received",
        "goods_services_not_as_described",
        "canceled_subscription_still_charging",
        "refund_never_processed",
    ]
    one_of(dispute_reason, "dispute_reason", reasons)
    resolutions = ["full_refund", "partial_refund"]
    one_of(resolution_requested, "resolution_requested", resolutions)
    if resolution_requested == "partial_refund" and partial_refund_amount is None:
        return (
            "Error: partial_refund_amount is required when resolution_requested is "
            "'partial_refund'."
        )
    case_id = dispute_id(user_id, transaction_id)
    record = {
        "dispute_id": case_id,
        "transaction_id": transaction_id,
        "user_id": user_id,
        "card_action": card_action,
        "card_last_4_digits": card_last_4_digits,
        "full_name": full_name,
        "phone": phone,
        "email": email,
        "address": address,
        "contacted_merchant": contacted_merchant,
        "purchase_date": purchase_date,
        "issue_noticed_date": issue_noticed_date,
        "dispute_reason": dispute_reason,
        "resolution_requested": resolution_requested,
        "partial_refund_amount": partial_refund_amount,
        "eligible_for_provisional_credit": eligible_for_provisional_credit,
        "provisional_credit_given": eligible_for_provisional_credit,
        "submitted_at": TODAY_TEXT,
        "status": "SUBMITTED",
    }
    taken = "Error: Dispute may have already been filed for this transaction."
    inserted(db.transaction_disputes, case_id, record, taken)
    lines = [
        "Credit card transaction dispute filed successfully. A case has been opened and will be "
        "reviewed within 10 business days.",
        "",
        f"Executed: {name_of(db, 'file_credit_card_dispute')}",
        f"Dispute ID: {case_id}",
        f"Transaction: {transaction_id}",
        f"Reason: {title(dispute_reason)}",
        f"Resolution Requested: {title(resolution_requested)}",
    ]
    if partial_refund_amount:
        lines.append(f"Partial Refund Amount: ${partial_refund_amount:.2f}")
    if eligible_for_provisional_credit:
        lines.append(
            "Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days."
        )
    else:
        lines.append("Provisional Credit: Not eligible at this time.")
    return "\n".join(lines)


_DEBIT_CATEGORIES = [
    "unauthorized_transaction",
    "atm_cash_discrepancy",
    "atm_deposit_not_credited",
    "duplicate_charge",
    "incorrect_amount",
    "goods_services_not_received",
    "recurring_charge_after_cancellation",
    "card_present_fraud",
    "card_not_present_fraud",
]
_DEBIT_TRANSACTION_TYPES = [
    "pin_purchase",
    "signature_purchase",
    "online_purchase",
    "atm_withdrawal",
    "atm_deposit",
    "recurring_payment",
    "person_to_person",
]
_FRAUD_CATEGORIES = ("unauthorized_transaction", "card_present_fraud", "card_not_present_fraud")


@behaviour("file_debit_card_dispute", "write")
def file_debit_card_dispute(
    db: BankingDB,
    transaction_id: str,
    account_id: str,
    card_id: str,
    user_id: str,
    dispute_category: str,
    transaction_date: str,
    discovery_date: str,
    disputed_amount: float,
    transaction_type: str,
    card_in_possession: bool,
    pin_compromised: str,
    contacted_merchant: bool,
    police_report_filed: bool,
    written_statement_provided: bool,
    provisional_credit_eligible: bool,
    customer_max_liability_amount: float,
    card_action: str,
) -> str:
    """Open a Regulation E dispute on a debit card transaction."""
    required = (
        transaction_id,
        account_id,
        card_id,
        user_id,
        dispute_category,
        transaction_date,
        discovery_date,
        disputed_amount,
        transaction_type,
        pin_compromised,
        card_action,
    )
    if not all(required):
        return "Error: Missing required parameters."
    if customer_max_liability_amount is None:
        return "Error: customer_max_liability_amount is required."
    flags = (
        card_in_possession,
        contacted_merchant,
        police_report_filed,
        written_statement_provided,
    )
    if any(flag is None for flag in flags):
        return (
            "Error: card_in_possession, contacted_merchant, police_report_filed, and "
            "written_statement_provided are required boolean fields."
        )
    one_of(dispute_category, "dispute_category", _DEBIT_CATEGORIES)
    one_of(transaction_type, "transaction_type", _DEBIT_TRANSACTION_TYPES)
    pin_states = ["yes_shared", "yes_observed", "no", "unknown"]
    one_of(pin_compromised, "pin_compromised", pin_states)
    actions = ["keep_active", "freeze_pending_investigation", "close_and_reissue"]
    one_of(card_action, "card_action", actions)
    if disputed_amount <= 0:
        return "Error: disputed_amount must be a positive number."
    case_id = dispute_id(user_id, transaction_id)
    fraud = dispute_category in _FRAUD_CATEGORIES
    pin_shared = pin_compromised == "yes_shared"
    record = {
        "dispute_id": case_id,
        "transaction_id": transaction_id,
        "account_id": account_id,
        "card_id": card_id,
        "user_id": user_id,
        "dispute_category": dispute_category,
        "transaction_date": transaction_date,
        "discovery_date": discovery_date,
        "disputed_amount": disputed_amount,
        "transaction_type": transaction_type,
        "card_in_possession": card_in_possession,
        "pin_compromised": pin_compromised,
        "contacted_merchant": contacted_merchant,
        "police_report_filed": police_report_filed,
        "written_statement_provided": written_statement_provided,
        "provisional_credit_eligible": provisional_credit_eligible,
        "provisional_credit_issued": provisional_credit_eligible,
        "provisional_credit_amount": disputed_amount if provisional_credit_eligible else None,
        "customer_max_liability_amount": customer_max_liability_amount,
        "card_action": card_action,
        "is_fraud_category": fraud,
        "pin_shared_voluntarily": pin_shared,
        "submitted_at": TODAY_TEXT,
        "status": "OPEN",
    }
    taken = "Error: Dispute may have already been filed for this transaction."
    inserted(db.debit_card_disputes, case_id, record, taken)
    lines = [
        f"Dispute ID: {case_id}",
        f"Transaction: {transaction_id}",
        f"Account: {account_id}",
        f"Category: {title(dispute_category)}",
        f"Disputed Amount: ${disputed_amount:.2f}",
        f"Card Action: {title(card_action)}",
    ]
    if provisional_credit_eligible:
        lines.append(
            f"Provisional Credit: ISSUED - ${disputed_amount:.2f} credited within 10 business "
            "days per Regulation E."
        )
    else:
        lines.append(
            "Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines for "
            "details."
        )
    if pin_shared:
        lines.append(
            "WARNING: Customer indicated PIN was shared voluntarily. This may affect liability "
            "determination."
        )
    if fraud and not police_report_filed and disputed_amount > 500:
        lines.append(
            "RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended."
        )
    return "\n".join(lines)


@behaviour("get_atm_deposit_images", "read")
def get_atm_deposit_images(db: BankingDB, transaction_id: str) -> str:
    """The scanned envelope of a bank-ATM deposit, or a note that no image exists."""
    given(transaction_id, "Error: Missing required parameter: transaction_id")
    transaction = found(db.bank_account_transaction_history, transaction_id, "Transaction")
    if transaction.get("type") != "atm_deposit":
        return (
            f"Error: Transaction '{transaction_id}' is not an ATM deposit. This tool only works "
            "for ATM deposit transactions."
        )
    description = transaction.get("description", "")
    if "RHO-BANK" not in description.upper() and "RHOBANK" not in description.upper():
        return (
            f"Error: Transaction '{transaction_id}' is from a third-party ATM. Deposit images are "
            "only available for Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback "
            "request must be submitted to the ATM network."
        )
    header = (
        "ATM Deposit Image Retrieval Results\n"
        "=====================================\n"
        f"Transaction ID: {transaction_id}\n"
    )
    scan = SCANNED_DEPOSITS.get(transaction_id)
    when = transaction.get("date", "Unknown")
    if scan is not None:
        atm, contents, notes = scan
        return (
            f"{header}ATM: {atm}\nDeposit Date: {when}\n\n{contents}\n\n"
            f"--- VERIFICATION NOTES ---\n{notes}\n"
        )
    return (
        f"{header}ATM: {description}\nDeposit Date: {when}\n"
        f"Amount Recorded: ${abs(transaction.get('amount', 0)):.2f}\n\n"
        "--- IMAGE STATUS ---\n"
        "Status: IMAGES NOT AVAILABLE\n"
        "Reason: Deposit images for this transaction have either expired (older than 90 days) or "
        "were not captured by the ATM system.\n\n"
        "For deposits without available images, the dispute will proceed based on customer "
        "statement and ATM journal records only. Investigation timeline may be extended.\n"
    )


BEHAVIOURS = (
    HISTORIES["get_credit_card_disputes"],
    file_credit_card_dispute,
    file_debit_card_dispute,
    HISTORIES["get_debit_card_disputes"],
    get_atm_deposit_images,
)
