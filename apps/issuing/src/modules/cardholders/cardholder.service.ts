import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Actor,
  CardholderOptionalFields,
  CardholderWriteView,
  CreateCardholderPayload,
  DOCUMENT_TYPES,
  IssuingEvents,
  ListCardholdersPayload,
  SANDBOX_KYC_FAIL_MARKER,
  UpdateCardholderPayload,
} from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { ApiError, DurableJobs, TransactionContext } from '@paygrid/platform';
import { ISSUING_CONFIG, IssuingConfig } from '../../config';
import { CardholderErrors } from '../../common/issuing-errors';
import { recordIssuingEvent } from '../../common/issuing-events';
import { pageOf } from '../../common/paging';
import { LIVE_CARD_STATUSES } from '../cards/card.states';
import { cardholderEventData, presentCardholder, presentCardholderWrite } from './cardholder.presenter';
import { CardholderRepository, CardholderWrite } from './cardholder.repository';
import {
  checkDateOfBirth,
  checkDeliveryAddress,
  checkFile,
  checkIdentity,
  checkKycVerification,
  checkName,
  normalisePhone,
} from './cardholder.rules';
import { Cardholder } from './cardholder.types';

/**
 * Cardholders and their asynchronous KYC (wire-compat §11.3, spec 7.5). A new cardholder, or one whose KYC
 * fields change, is PENDING until the `cardholder_kyc_review` job decides (KYC_REVIEW_DELAY_MS later): FAILED
 * when its email contains `kyc_fail` (the sandbox trigger), SUCCESS otherwise. KYC fields are locked while the
 * review runs; contact fields (email, phone, delivery address) are not. Every decision emits
 * `cardholder.kyc.status_changed`, every update `cardholder.updated`.
 */
export const KYC_REVIEW_JOB = 'cardholder_kyc_review';
const IDV_URL_TTL_MS = 30 * 60 * 1000;
const KYC_FIELDS = [
  'date_of_birth',
  'residential_address',
  'document_type',
  'document',
  'gender',
  'nationality',
  'identity',
  'kyc_verification',
] as const satisfies readonly (keyof CardholderOptionalFields)[];

type CardholderInput = CardholderOptionalFields & {
  email?: string;
  first_name?: string;
  last_name?: string;
  country_code?: string;
  phone_number?: string;
};

interface PreparedFile {
  kind: string;
  content: Buffer;
  sha256: string;
}

@Injectable()
export class CardholderService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cardholders: CardholderRepository,
    private readonly jobs: DurableJobs,
    @Inject(ISSUING_CONFIG) private readonly config: Pick<IssuingConfig, 'KYC_REVIEW_DELAY_MS'>,
  ) {}

  async create(tx: TransactionContext, actor: Actor, payload: CreateCardholderPayload): Promise<CardholderWriteView> {
    const cardholder = await this.createCardholder(tx, actor, payload);
    return presentCardholderWrite(cardholder);
  }

  /** Also one-step issuing's path (card create without cardholder_id). */
  async createCardholder(tx: TransactionContext, actor: Actor, input: CardholderInput): Promise<Cardholder> {
    const { write, files } = this.prepare(undefined, input);
    const cardholderId = uuidV4();
    const created = await this.cardholders.insert(
      tx.manager,
      cardholderId,
      { accountId: actor.account_id, masterAccountId: actor.master_account_id },
      write,
    );
    for (const file of files) await this.cardholders.saveDocument(tx.manager, cardholderId, file.kind, file.content, file.sha256);
    await this.scheduleReview(tx, created);
    return created;
  }

  async list(actor: Actor, payload: ListCardholdersPayload) {
    const { items, total } = await this.cardholders.list(this.dataSource, actor.account_id, {
      status: payload.cardholder_status,
      pageNumber: payload.page_number,
      pageSize: payload.page_size,
    });
    return pageOf(
      items.map((item) => presentCardholder(item, item.numberOfCards)),
      total,
      payload.page_size,
    );
  }

  async retrieve(actor: Actor, cardholderId: string) {
    const cardholder = await this.cardholders.find(this.dataSource, actor.account_id, cardholderId);
    if (!cardholder) throw CardholderErrors.notFound();
    return presentCardholder(cardholder, await this.cardholders.numberOfCards(this.dataSource, cardholderId));
  }

  async update(tx: TransactionContext, actor: Actor, payload: UpdateCardholderPayload): Promise<CardholderWriteView> {
    const { cardholder_id: cardholderId, ...changes } = payload;
    const existing = await this.cardholders.find(tx.manager, actor.account_id, cardholderId, { lock: true });
    if (!existing) throw CardholderErrors.notFound();
    const updated = await this.applyChanges(tx, existing, changes);
    return presentCardholderWrite(updated);
  }

  /**
   * Writes changed fields, sends the cardholder back to review when KYC fields changed (refused while one runs),
   * and emits cardholder.updated. Used by update and by card create's inline supplement.
   */
  async applyChanges(tx: TransactionContext, existing: Cardholder, changes: CardholderInput): Promise<Cardholder> {
    const kycChanged = KYC_FIELDS.some((field) => changes[field] !== undefined);
    if (kycChanged && existing.status === 'PENDING') throw CardholderErrors.cannotUpdateDuringReview();
    const { write, files } = this.prepare(existing, changes);
    if (files.length > 0) {
      const approved = await this.cardholders.approvedDocumentHashes(tx.manager, existing.cardholderId);
      if (files.some((file) => approved.get(file.kind) === file.sha256)) throw CardholderErrors.documentDuplicated();
    }
    let updated = await this.cardholders.update(tx.manager, existing.cardholderId, write);
    for (const file of files) await this.cardholders.saveDocument(tx.manager, existing.cardholderId, file.kind, file.content, file.sha256);
    if (kycChanged) {
      updated = await this.cardholders.transition(tx.manager, existing.cardholderId, 'RESUBMIT', { review_count: existing.reviewCount + 1 });
      await recordIssuingEvent(tx.manager, updated, IssuingEvents.cardholderKycStatusChanged, updated.cardholderId, cardholderEventData(updated));
      await this.scheduleReview(tx, updated);
    }
    await recordIssuingEvent(tx.manager, updated, IssuingEvents.cardholderUpdated, updated.cardholderId, cardholderEventData(updated));
    return updated;
  }

  async delete(tx: TransactionContext, actor: Actor, cardholderId: string) {
    const existing = await this.cardholders.find(tx.manager, actor.account_id, cardholderId, { lock: true });
    if (!existing) throw CardholderErrors.notFound();
    if ((await this.cardholders.numberOfCards(tx.manager, cardholderId, LIVE_CARD_STATUSES)) > 0) throw CardholderErrors.hasCards();
    await this.cardholders.softDelete(tx.manager, cardholderId);
    return { cardholder_id: cardholderId, deleted: true as const };
  }

  /** The review job: decides a review that is still the current one (a resubmission starts a new one). */
  async completeReview(tx: TransactionContext, subjectId: string): Promise<void> {
    const [cardholderId, reviewNumber] = subjectId.split(':');
    const cardholder = await this.cardholders.findById(tx.manager, cardholderId, { lock: true });
    if (!cardholder || cardholder.status !== 'PENDING' || cardholder.reviewCount !== Number(reviewNumber)) return;
    const passed = !cardholder.email.toLowerCase().includes(SANDBOX_KYC_FAIL_MARKER);
    const redirect = cardholder.kycMethod === 'SUMSUB_REDIRECT';
    const decided = await this.cardholders.transition(tx.manager, cardholderId, passed ? 'PASS_REVIEW' : 'FAIL_REVIEW', {
      idv_status: redirect ? (passed ? 'PASSED' : 'FAILED') : '',
    });
    if (passed) await this.cardholders.approveDocuments(tx.manager, cardholderId);
    await recordIssuingEvent(tx.manager, decided, IssuingEvents.cardholderKycStatusChanged, cardholderId, cardholderEventData(decided));
  }

  private async scheduleReview(tx: TransactionContext, cardholder: Cardholder): Promise<void> {
    await this.jobs.schedule(tx, {
      kind: KYC_REVIEW_JOB,
      subjectId: `${cardholder.cardholderId}:${cardholder.reviewCount}`,
      dueAt: new Date(Date.now() + this.config.KYC_REVIEW_DELAY_MS),
    });
  }

  /** Checks every given field with the spec's rules and merges it over what is on file. */
  private prepare(existing: Cardholder | undefined, input: CardholderInput): { write: CardholderWrite; files: PreparedFile[] } {
    const fail = (error: ApiError | undefined) => {
      if (error) throw error;
    };
    if (input.first_name !== undefined) fail(checkName('first_name', input.first_name));
    if (input.last_name !== undefined) fail(checkName('last_name', input.last_name));
    if (input.date_of_birth !== undefined) fail(checkDateOfBirth(input.date_of_birth));
    let countryCode = existing?.countryCode;
    let phoneNumber = existing?.phoneNumber;
    if (input.country_code !== undefined || input.phone_number !== undefined) {
      const phone = normalisePhone(input.country_code ?? countryCode ?? '', input.phone_number ?? phoneNumber ?? '');
      if (phone instanceof ApiError) throw phone;
      ({ countryCode, phoneNumber } = phone);
    }
    if (input.delivery_address !== undefined) fail(checkDeliveryAddress(input.delivery_address));
    const dateOfBirth = input.date_of_birth ?? existing?.dateOfBirth ?? null;
    if (input.identity !== undefined) fail(checkIdentity(input.identity, dateOfBirth !== null));
    if (input.kyc_verification !== undefined) fail(checkKycVerification(input.kyc_verification, countryCode));

    const files: PreparedFile[] = [];
    const addFile = (kind: string, base64: string | undefined, declaredType?: string) => {
      if (base64 === undefined) return;
      const checked = checkFile(kind, base64, declaredType);
      if (checked instanceof ApiError) throw checked;
      files.push({ kind, content: checked.content, sha256: createHash('sha256').update(checked.content).digest('hex') });
    };
    if (input.document_type !== undefined && !(DOCUMENT_TYPES as readonly string[]).includes(input.document_type.toLowerCase())) {
      throw CardholderErrors.fileTypeNotSupported('document_type');
    }
    addFile('document', input.document, input.document_type);
    for (const file of ['front_file', 'back_file', 'hand_file'] as const) addFile(`identity.${file}`, input.identity?.[file]);
    addFile('kyc_proof', input.kyc_verification?.kyc_proof);

    const identity = input.identity
      ? {
          type: input.identity.type,
          number: input.identity.number,
          files: (['front_file', 'back_file', 'hand_file'] as const).filter((file) => input.identity?.[file] !== undefined),
        }
      : (existing?.identity ?? null);
    const redirect = input.kyc_verification?.method === 'SUMSUB_REDIRECT';
    return {
      write: {
        email: input.email ?? existing?.email ?? '',
        firstName: input.first_name ?? existing?.firstName ?? '',
        lastName: input.last_name ?? existing?.lastName ?? '',
        countryCode: countryCode ?? '',
        phoneNumber: phoneNumber ?? '',
        dateOfBirth,
        deliveryAddress: (input.delivery_address as Record<string, string> | undefined) ?? existing?.deliveryAddress ?? null,
        residentialAddress: (input.residential_address as Record<string, string> | undefined) ?? existing?.residentialAddress ?? null,
        gender: input.gender ?? existing?.gender ?? null,
        nationality: input.nationality ?? existing?.nationality ?? null,
        identity,
        documentType: input.document_type?.toLowerCase() ?? existing?.documentType ?? null,
        kycMethod: input.kyc_verification?.method ?? existing?.kycMethod ?? null,
        kycReferenceId: input.kyc_verification?.reference_id ?? existing?.kycReferenceId ?? null,
        idvStatus: redirect ? 'PENDING' : (existing?.idvStatus ?? ''),
        idvUrl: redirect ? `https://idv.sandbox.paygrid.test/verify/${randomBytes(16).toString('hex')}` : (existing?.idvUrl ?? null),
        idvUrlExpiresAt: redirect ? new Date(Date.now() + IDV_URL_TTL_MS) : (existing?.idvUrlExpiresAt ?? null),
      },
      files,
    };
  }
}
