"""Scanned ATM deposit envelopes the image lookup returns (fixed texts of three deposits).

Interface text: the agent reads it verbatim when it looks the deposit up.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["SCANNED_DEPOSITS"]


def _rent_refund_scan(
    envelope: str, time: str, location: str, check: str, bank: str, payee: str, dated: str
) -> str:
    """The scan of an $875 rent-refund check plus $260 cash that the ATM booked as $385.

    Two of the deposits are this same envelope at different customers; only the particulars
    differ.
    """
    return (
        "\n"
        "=== ATM DEPOSIT ENVELOPE SCAN ===\n"
        f"Envelope ID: {envelope}\n"
        f"Deposit Time: {time}\n"
        f"ATM Location: {location}\n"
        "\n"
        "--- ENVELOPE CONTENTS ---\n"
        "Item 1: Personal Check\n"
        f"  - Check Number: {check}\n"
        f"  - Drawn On: {bank}\n"
        f"  - Payee: {payee}\n"
        "  - Amount: $875.00\n"
        '  - Memo: "October rent refund"\n'
        "  - Signature: Present and legible\n"
        f"  - Date on Check: {dated}\n"
        "\n"
        "Item 2: Cash\n"
        "  - Denomination breakdown:\n"
        "    * 2 x $100 bills = $200.00\n"
        "    * 3 x $20 bills = $60.00\n"
        "  - Total Cash: $260.00\n"
        "\n"
        "--- DEPOSIT SUMMARY ---\n"
        "Check Total: $875.00\n"
        "Cash Total: $260.00\n"
        "GRAND TOTAL: $1,135.00\n"
        "\n"
        "--- MACHINE RECORD ---\n"
        "Amount Recorded by ATM: $385.00\n"
        "DISCREPANCY DETECTED: $750.00 difference\n"
        "\n"
        "--- IMAGE QUALITY ---\n"
        "Envelope scan: CLEAR\n"
        "Check front: CLEAR\n"
        f'Check back (endorsement): CLEAR - endorsed "For Deposit Only - {payee}"\n'
        "Cash image: CLEAR - bills visible and countable\n"
    )


_RENT_REFUND_NOTES = (
    "Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only "
    "$385.00. Discrepancy of $750.00 confirmed via image review."
)

SCANNED_DEPOSITS = MappingProxyType(
    {
        "btxn_834027370c20": (
            "ATM #3921",
            _rent_refund_scan(
                "ENV-2025-3921-00923",
                "3:47 PM CST",
                "Rho-Bank ATM #3921, Cedar Lane Branch, Austin, TX",
                "7284",
                "First Texas Bank",
                "Derek Yamamoto",
                "11/03/2025",
            ),
            _RENT_REFUND_NOTES,
        ),
        "btxn_test_deposit_001": (
            "ATM #3921",
            _rent_refund_scan(
                "ENV-2025-3921-00847",
                "2:34 PM EST",
                "Rho-Bank ATM #3921, 742 Oak Avenue, Portland, OR",
                "4821",
                "First National Bank",
                "Linda Patterson",
                "11/05/2025",
            ),
            _RENT_REFUND_NOTES,
        ),
        "btxn_test_atm_dep_partial": (
            "ATM #5847",
            (
                "\n"
                "=== ATM DEPOSIT ENVELOPE SCAN ===\n"
                "Envelope ID: ENV-2025-5847-00293\n"
                "Deposit Time: 10:15 AM EST\n"
                "\n"
                "--- ENVELOPE CONTENTS ---\n"
                "Item 1: Personal Check\n"
                "  - Check Number: 7392\n"
                "  - Amount: $500.00\n"
                "\n"
                "--- DEPOSIT SUMMARY ---\n"
                "Check Total: $500.00\n"
                "Cash Total: $0.00\n"
                "GRAND TOTAL: $500.00\n"
                "\n"
                "--- MACHINE RECORD ---\n"
                "Amount Recorded by ATM: $500.00\n"
                "No discrepancy detected.\n"
            ),
            ("Images confirm deposit matches recorded amount. No discrepancy found."),
        ),
    }
)
"""Transaction id -> (ATM, envelope scan, verification notes)."""
