"""The plain agent and customer tools: outputs and error texts as the reference writes them."""

from tests.domains.banking_knowledge.conftest import call
from tests.domains.banking_knowledge.probes import DELTA_FLIGHT


def test_get_current_time__is_the_fixed_clock(world):
    assert call(world(), "agent", "get_current_time") == (
        "The current time is 2025-11-14 03:40:00 EST.",
        False,
    )


def test_transfer_to_human_agents__checks_the_reason_code(world):
    played = world()
    assert call(played, "agent", "transfer_to_human_agents", summary="s") == (
        "Transfer successful (reason: other). A human agent will assist you shortly.",
        False,
    )
    text, error = call(played, "agent", "transfer_to_human_agents", summary="s", reason="nope")
    assert not error
    assert text.startswith("Error: Invalid transfer reason 'nope'. Must be one of: ")
    assert text.endswith("request_completed_customer_wants_human_followup, other")


def test_user_lookups__render_records_field_by_field(world):
    text, _ = call(world(), "agent", "get_user_information_by_id", user_id="lj82d4f1a9")
    assert text.startswith("Found 1 record(s) in 'users':\n\n1. Record ID: lj82d4f1a9\n   name: ")
    assert text.endswith("\n")
    assert call(world(), "agent", "get_user_information_by_id", user_id="nobody") == (
        "No records found in 'users'.",
        False,
    )


def test_user_lookups__a_quote_breaks_the_pasted_json_as_in_the_reference(world):
    text, error = call(world(), "agent", "get_user_information_by_name", customer_name='A "B"')
    assert not error
    assert text.startswith("Error: Invalid JSON: Expecting ',' delimiter")


def test_change_user_email__updates_or_reports_the_missing_user(world):
    played = world()
    assert call(played, "agent", "change_user_email", user_id="lj82d4f1a9", new_email="n@x.y") == (
        "Email updated successfully.\n  - User ID: lj82d4f1a9\n  - New Email: n@x.y",
        False,
    )
    assert played.agent_db.users["lj82d4f1a9"].root["email"] == "n@x.y"
    assert call(played, "agent", "change_user_email", user_id="x", new_email="n") == (
        "Error: User with ID 'x' not found.",
        False,
    )


def test_log_verification__records_once_per_user_and_time(world):
    played = world()
    fields = {
        "name": "Ann",
        "user_id": "u1",
        "address": "a",
        "email": "e",
        "phone_number": "p",
        "date_of_birth": "01/01/2000",
        "time_verified": "2025-11-14 03:40:00 EST",
    }
    assert call(played, "agent", "log_verification", **fields) == (
        "Verification logged successfully.\n  - User: Ann (ID: u1)\n"
        "  - Verified at: 2025-11-14 03:40:00 EST",
        False,
    )
    record = played.agent_db.verification_history["u1_20251114_034000_EST"].root
    assert list(record) == list(fields)
    assert call(played, "agent", "log_verification", **fields) == (
        "Failed to log verification: Record may already exist.",
        False,
    )


def test_submit_referral__deterministic_id_and_duplicate(world):
    played = world()
    text, _ = call(played, "user", "submit_referral", user_id="123", account_type="Blue Account")
    assert "  - Referral ID: 4349021c58516de1\n" in text
    assert text.endswith("They will need to use this when applying for their account.")
    assert call(played, "user", "submit_referral", user_id="123", account_type="Blue Account") == (
        "Failed to submit referral: Record ID '4349021c58516de1' may already exist.",
        False,
    )


def test_submit_transaction__rewards_by_card_and_category(world):
    text, _ = call(world(), "user", "submit_transaction", **DELTA_FLIGHT)
    assert "  - Transaction ID: txn_ca3578ef9814\n" in text
    assert text.endswith("  - Rewards Earned: 493 points (4.0% cashback rate)\n")


def test_apply_for_credit_card__validates_the_type_and_stores_income_as_float(world):
    played = world()
    text, _ = call(
        played,
        "user",
        "apply_for_credit_card",
        card_type="Nope",
        customer_name="A",
        annual_income=1,
    )
    assert text.startswith(
        "Error: Invalid card_type 'Nope'. Must be one of: ['Bronze Rewards Card'"
    )
    call(
        played,
        "user",
        "apply_for_credit_card",
        card_type="EcoCard",
        customer_name="A",
        annual_income=5,
    )
    (record,) = [row.root for row in played.agent_db.credit_card_applications.values()][-1:]
    assert record["annual_income"] == 5.0 and isinstance(record["annual_income"], float)


def test_request_human_agent_transfer__numbers_the_requests(world):
    played = world()
    texts = [call(played, "user", "request_human_agent_transfer")[0] for _ in range(3)]
    assert texts[2] == "Transfer request #3 submitted.\nThe agent will process your request."
    assert len(played.agent_db.human_transfer_requests) == 3


def test_list_tools__the_empty_message_is_the_query_text_as_in_the_reference(world):
    assert call(world(), "agent", "list_discoverable_agent_tools") == (
        "Your called agent tools:\nNo records found in 'agent_discoverable_tools'.",
        False,
    )
    assert call(world(), "user", "list_discoverable_user_tools") == (
        "Tools given to you by the agent:\nNo records found in 'user_discoverable_tools'.",
        False,
    )


def test_user_and_agent__share_one_database(world):
    played = world()
    assert played.user_db is played.agent_db
    call(played, "user", "submit_referral", user_id="9", account_type="X")
    text, _ = call(played, "agent", "get_referrals_by_user", user_id="9")
    assert text.startswith("Found 1 record(s) in 'referrals'")
