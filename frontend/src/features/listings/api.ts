/** The listing screens' reads and writes through the one typed client. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, call, listFilters, pageCount, type Schemas } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { toast } from "../../shared/ui/toast";

export type Listing = Schemas["Listing"];
/** `get-single`: the listing, with its status history for staff and its host side. */
export type ListingDetail = Schemas["ListingDetailSchema"];
export type ListingRequest = Schemas["ListingRequest"];
export type ListingRequestDetail = Schemas["ListingRequestDetail"];
export type CatalogueItem = Schemas["CatalogueItem"];

export interface ListingListState {
  tab: string;
  title: string;
  propertyType: string;
  period: string;
  page: number;
}

/** The tabs of /listing: status tabs and the inactive one (filters[isActive]=false). */
export const LISTING_TABS = [
  { value: "all", label: "All" },
  { value: "approved", label: "Approved" },
  { value: "pending", label: "Pending" },
  { value: "rejected", label: "Rejected" },
  { value: "inactive", label: "Inactive" },
] as const;

export const REQUEST_TABS = [
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
  { value: "all", label: "All" },
] as const;

export const PROPERTY_TYPES = [
  { value: "", label: "All property types" },
  { value: "officeSpace", label: "Work space" },
  { value: "eventSpace", label: "Event space" },
];

export const PERIOD_OPTIONS = [
  { value: "", label: "Any time" },
  { value: "daily", label: "Last day" },
  { value: "weekly", label: "Last week" },
  { value: "monthly", label: "Last month" },
];

export function listingQuery(state: ListingListState) {
  const status = ["approved", "pending", "rejected"].includes(state.tab) ? state.tab : "";
  return {
    page: state.page,
    limit: 10,
    ...listFilters({
      status,
      isActive: state.tab === "inactive" ? "false" : "",
      title: state.title,
      propertyType: state.propertyType,
      period: state.period,
    }),
  };
}

export function useListings(state: ListingListState) {
  const query = listingQuery(state);
  return useQuery({
    queryKey: apiKey("/api/listing/get-all", query),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/get-all", { params: { query }, signal })).then((answer) => ({
        rows: answer.data.listings,
        totalPages: pageCount(answer.data),
      })),
    placeholderData: (previous) => previous,
  });
}

export function requestQuery(state: { tab: string; title: string; period: string; page: number }, type: "new" | "edit" | "") {
  return {
    page: state.page,
    limit: 10,
    ...listFilters({ status: state.tab === "all" ? "" : state.tab, title: state.title, period: state.period, type }),
  };
}

export function useRequests(state: { tab: string; title: string; period: string; page: number }, type: "new" | "edit" | "") {
  const query = requestQuery(state, type);
  return useQuery({
    queryKey: apiKey("/api/listing/get-all-requests", query),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/get-all-requests", { params: { query }, signal })).then((answer) => ({
        rows: answer.data.requests,
        totalPages: pageCount(answer.data),
      })),
    placeholderData: (previous) => previous,
  });
}

export function useListing(id: string) {
  return useQuery({
    queryKey: apiKey("/api/listing/get-single/{listing_id}", { id }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/get-single/{listing_id}", { params: { path: { listing_id: id } }, signal })).then(
        (answer) => answer.data,
      ),
    retry: false,
  });
}

export function useRequest(id: string | null | undefined) {
  return useQuery({
    queryKey: apiKey("/api/listing/get-request/{request_id}", { id }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/get-request/{request_id}", { params: { path: { request_id: id ?? "" } }, signal })).then(
        (answer) => answer.data,
      ),
    enabled: Boolean(id),
    retry: false,
  });
}

/** Every listing write refreshes the listing reads and the menu counters. */
function refreshListings() {
  void invalidate(["/api/listing", "/api/dashboard/pending-counter", "/api/booking/calendar"]);
}

export function useToggleActive() {
  return useMutation({
    mutationFn: (listing: Listing) =>
      call(
        api.PATCH("/api/listing/toggle-active/{listing_id}", {
          params: { path: { listing_id: listing._id } },
          body: { isActive: !listing.isActive },
        }),
      ),
    onSuccess: (answer) => toast.success(answer.message || "Listing updated."),
    onSettled: refreshListings,
  });
}

export function useDeleteListing() {
  return useMutation({
    mutationFn: (listing: Listing) =>
      call(api.DELETE("/api/listing/delete/{listing_id}", { params: { path: { listing_id: listing._id } } })),
    onSuccess: (answer) => toast.success(answer.message || "Listing deleted successfully."),
    onSettled: refreshListings,
  });
}

export function useReview() {
  return useMutation({
    mutationFn: ({ requestId, status, reason }: { requestId: string; status: "approved" | "rejected"; reason?: string }) =>
      call(
        api.PATCH("/api/listing/update-request-status/{request_id}", {
          params: { path: { request_id: requestId } },
          body: { status, reason: reason ?? "" },
        }),
      ),
    onSuccess: (answer) => toast.success(answer.message || "Request updated."),
    onSettled: refreshListings,
  });
}
